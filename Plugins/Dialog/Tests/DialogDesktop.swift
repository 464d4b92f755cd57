import Foundation
import NBridgeTesting

/// An X display with a window manager (Xvfb and openbox, started and stopped by PID) and an app
/// folder of the test's own: `nbridge app` runs there with a `--script`, and the test answers
/// its dialogs with `xdotool`, as a user would with the keyboard.
final class DialogDesktop: AppDesktop {
  init() throws {
    try super.init(
      prefix: "nbridge-dialog",
      manifest: #"{"id": "dev.nbridge.dialogtest", "name": "Dialog Test", "window": {"width": 600, "height": 440}}"#,
      page: "<!doctype html><title>Dialog Test</title><p>main</p>\n")
  }

  /// Types `text` into the focused window, then presses `keys` one after the other.
  func type(_ text: String?, then keys: [String]) throws {
    if let text { try tool("xdotool", ["type", "--delay", "30", text]) }
    for key in keys { try tool("xdotool", ["key", key]) }
  }
}
