import NBridgeApp
import NBridgeAutostart
import NBridgeBackground
import NBridgeFS
import NBridgeDialog
import NBridgeLocation
import NBridgeNotification
import NBridgePasteboard
import NBridgePlugin
import NBridgeStorage
import NBridgeWindowService
import NBridgeTray

/// The plugins every nbridge runtime ships with.
public enum Builtins {
  /// `app`, `storage`, `preference`, `pasteboard`, `notification`, `background`, `location`, `autostart`, `fs`, `window`, `dialog` and `tray`, in that order.
  public static let plugins: [any Plugin.Type] = [
    AppPlugin.self, StoragePlugin.self, PreferencePlugin.self, PasteboardPlugin.self, NotificationPlugin.self,
    BackgroundPlugin.self, LocationPlugin.self, AutostartPlugin.self, FSPlugin.self, WindowPlugin.self, DialogPlugin.self,
    TrayPlugin.self,
  ]
}
