import NBridgeApp
import NBridgeAutostart
import NBridgeBackground
import NBridgeLocation
import NBridgeNotification
import NBridgePasteboard
import NBridgePlugin
import NBridgeShortcut
import NBridgeStorage
import NBridgeTray

/// The plugins every nbridge runtime ships with.
public enum Builtins {
  /// `app`, `storage`, `preference`, `pasteboard`, `notification`, `background`, `location`, `autostart`, `tray` and `shortcut`, in that order.
  public static let plugins: [any Plugin.Type] = [
    AppPlugin.self, StoragePlugin.self, PreferencePlugin.self, PasteboardPlugin.self, NotificationPlugin.self,
    BackgroundPlugin.self, LocationPlugin.self, AutostartPlugin.self, TrayPlugin.self,
    ShortcutPlugin.self,
  ]
}
