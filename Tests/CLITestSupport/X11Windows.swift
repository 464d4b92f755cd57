import Foundation
import NBridgeTesting

/// The windows of an X display as `xdotool` finds them.
package enum X11Windows {
  /// Runs `xdotool` with `arguments` on `display`; its stdout, trimmed.
  package static func xdotool(_ arguments: [String], display: String) throws -> String {
    let r = try ChildProcess.run("xdotool", arguments, environment: ["DISPLAY": display], timeout: 20)
    return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The first window named `name`, once it exists (30 s at most).
  package static func window(_ name: String, display: String) throws -> String {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      if let id = try xdotool(["search", "--name", name], display: display).split(separator: "\n").first {
        return String(id)
      }
      usleep(100_000)
    }
    throw ChildProcessError.notReady("no window named \(name)")
  }
}
