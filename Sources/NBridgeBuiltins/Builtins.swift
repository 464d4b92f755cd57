import NBridgeApp
import NBridgeAutostart
import NBridgeBackground
import NBridgeFS
import NBridgeDialog
import NBridgeLocation
import NBridgeMenu
import NBridgeNotification
import NBridgePasteboard
import NBridgePlugin
import NBridgeShortcut
import NBridgeStorage
import NBridgeWindowService
import NBridgeTray

/// The plugins every nbridge runtime ships with.
public enum Builtins {
  /// `app`, `storage`, `preference`, `pasteboard`, `notification`, `background`, `location`, `autostart`, `fs`, `window`, `dialog`, `tray`, `shortcut` and `menu`, in that order.
  public static let plugins: [any Plugin.Type] = [
    AppPlugin.self, StoragePlugin.self, PreferencePlugin.self, PasteboardPlugin.self, NotificationPlugin.self,
    BackgroundPlugin.self, LocationPlugin.self, AutostartPlugin.self, FSPlugin.self, WindowPlugin.self, DialogPlugin.self,
    TrayPlugin.self, ShortcutPlugin.self, MenuPlugin.self,
  ]
}
