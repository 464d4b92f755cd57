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

  /// Types `path` into the GTK file chooser `window` (focused), as a user does, and reads it back
  /// before the caller presses Return: `/` opens the chooser's location field, the rest is typed
  /// once the field is on screen, and while the field holds something else (select all, copy,
  /// the clipboard as `xclip` reads it) the path is typed over it again, at most five times.
  /// Return then opens what the field holds, and the test checks the path the app was given.
  /// Under load GTK drops keys that reach a widget not yet realized ("Gtk-CRITICAL
  /// gtk_widget_event: assertion 'WIDGET_REALIZED_FOR_EVENT' failed"): the field itself just
  /// after `/` (`/tmp/x` became `/mp/x`, and Return gave "The folder contents could not be
  /// displayed"), or the completion list that pops up while typing.
  func typePath(_ path: String, into window: String) throws {
    precondition(path.hasPrefix("/"))
    let before = try header(of: window)
    try tool("xdotool", ["type", "/"])
    let shown = try waitUntil(timeout: 30) { try header(of: window) != before }
    guard shown else { throw ChildProcessError.notReady("no location field in window \(window) after /") }
    try type(String(path.dropFirst()), then: [])
    var held = ""
    for _ in 0..<5 {
      held = try fieldText()
      // Nothing copied: the field does not have the keys (a completion list has them); Return
      // decides.
      if held == path || held.isEmpty { return }
      try type(nil, then: ["ctrl+a"])
      try type(path, then: [])
    }
    throw ChildProcessError.notReady("the location field holds \(held), not \(path)")
  }

  /// Presses Return in the file chooser `window` until it closes, at most three times, 10 s
  /// apart: while GTK's completion list is up under the location field (the file typed matches
  /// itself), the list can take the Return and the chooser stays open with the path in its field
  /// (seen in a fresh clone's make test: the list drawn over the files, the app given nothing).
  /// A user presses Return again; the test still checks the path the app was given.
  func accept(_ window: String) throws {
    for _ in 0..<3 {
      try type(nil, then: ["Return"])
      if waitUntil(timeout: 10, { !isShown(window) }) { return }
    }
  }

  /// Whether `window` exists and is mapped (`xwininfo`'s map state).
  func isShown(_ window: String) -> Bool {
    let info = try? ChildProcess.run("xwininfo", ["-id", window], environment: ["DISPLAY": display], timeout: 20)
    return info?.stdout.contains("IsViewable") ?? false
  }

  /// The focused text field's text: selected whole and copied, then read from the clipboard
  /// (empty if nothing answered within 10 s).
  func fieldText() throws -> String {
    try type(nil, then: ["ctrl+a", "ctrl+c"])
    var text = ""
    _ = waitUntil(timeout: 10) {
      let read = try? ChildProcess.run(
        "xclip", ["-selection", "clipboard", "-o"], environment: ["DISPLAY": display], timeout: 5)
      text = read?.stdout ?? ""
      return !text.isEmpty
    }
    return text
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
