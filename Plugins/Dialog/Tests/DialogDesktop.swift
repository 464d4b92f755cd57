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

  /// Types `path` into the GTK file chooser `window` (focused), as a user does: `/` opens the
  /// chooser's location field, and the rest is typed once the field is on screen. GTK drops the
  /// keys that reach the field before it is realized ("Gtk-CRITICAL gtk_widget_event: assertion
  /// 'WIDGET_REALIZED_FOR_EVENT' failed"); under load that is the key after `/`, so `/tmp/x`
  /// became `/mp/x` and Return gave "The folder contents could not be displayed".
  func typePath(_ path: String, into window: String) throws {
    precondition(path.hasPrefix("/"))
    let before = try header(of: window)
    try tool("xdotool", ["type", "/"])
    let shown = try waitUntil(timeout: 30) { try header(of: window) != before }
    guard shown else { throw ChildProcessError.notReady("no location field in window \(window) after /") }
    try type(String(path.dropFirst()), then: [])
  }

  /// A digest of the pixels of `window`'s top 80 rows, where the file chooser shows its location
  /// field (its file list, which may still be filling, is below).
  func header(of window: String) throws -> String {
    try ChildProcess.run(
      "sh", ["-c", "xwd -id \"$1\" -silent | convert xwd:- -crop 100%x80+0+0 rgb:- | md5sum", "sh", window],
      environment: ["DISPLAY": display], timeout: 20
    ).stdout
  }

  /// Types `text` into the focused window, then presses `keys` one after the other.
  func type(_ text: String?, then keys: [String]) throws {
    if let text { try tool("xdotool", ["type", "--delay", "30", text]) }
    for key in keys { try tool("xdotool", ["key", key]) }
  }
}
