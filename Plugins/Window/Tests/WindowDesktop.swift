import Foundation
import NBridgeTesting
import Testing

/// An X display with a window manager (Xvfb 640x480 and openbox, started and stopped by PID),
/// an app folder of the test's own and a data dir: `nbridge app` runs there, and the test reads
/// the windows as a user's tools see them (`xdotool`, `xwininfo`, `xprop`).
final class WindowDesktop: AppDesktop {
  init(manifest: String = WindowDesktop.manifest) throws {
    try super.init(
      prefix: "nbridge-window", manifest: manifest, page: "<!doctype html><title>Window Test</title><p>main</p>\n")
  }

  static let manifest = """
    {"id": "dev.nbridge.windowtest", "name": "Window Test",
     "window": {"title": "Window Test", "width": 320, "height": 240}}
    """

  /// The page script that `--script` runs: `go(n)` waits until the test writes `go-<n>` into the app's folder.
  static let prelude = """
    const go = async (n) => {
      for (let i = 0; i < 1500; i++) {
        const r = await fetch('go-' + n).catch(() => null);
        if (r && r.ok) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the test never said go ' + n);
    };

    """

  /// Lets the page's `go(n)` return.
  func go(_ n: Int) throws { try write("go-\(n)", "go") }

  /// Starts `nbridge app` on the app's folder with `script` (after `prelude`) as its `--script`.
  override func start(script: String) throws -> ChildProcess {
    try super.start(script: Self.prelude + script)
  }

  /// The first window named `name`, once it exists.
  func window(_ name: String) throws -> String {
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      if let id = try tool("xdotool", ["search", "--name", "^\(name)$"]).split(separator: "\n").first {
        return String(id)
      }
      usleep(50_000)
    }
    throw ChildProcessError.notReady("no window named \(name)")
  }

  /// Whether a window named `name` exists.
  func hasWindow(_ name: String) throws -> Bool {
    !(try tool("xdotool", ["search", "--name", "^\(name)$"]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
  }

  /// What `xwininfo` says of window `id`: the client's and the frame's geometry and its map state.
  struct Info: Equatable, CustomStringConvertible {
    var x = 0, y = 0, width = 0, height = 0
    var frameX = 0, frameY = 0
    var viewable = false
    var description: String {
      "client \(width)x\(height)+\(x)+\(y), frame at \(frameX),\(frameY), viewable \(viewable)"
    }
  }

  func info(_ id: String) throws -> Info {
    let text = try tool("xwininfo", ["-id", id])
    func number(_ label: String) -> Int {
      text.split(separator: "\n").first { $0.contains(label) }
        .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) } ?? -99999
    }
    var info = Info()
    info.x = number("Absolute upper-left X")
    info.y = number("Absolute upper-left Y")
    info.width = number("Width")
    info.height = number("Height")
    // The frame's corner: the client's, less its place inside the frame the window manager put it in.
    info.frameX = info.x - number("Relative upper-left X")
    info.frameY = info.y - number("Relative upper-left Y")
    info.viewable = text.contains("Map State: IsViewable")
    return info
  }

  /// `xprop`'s line for `property` of window `id`.
  func property(_ id: String, _ property: String) throws -> String {
    try tool("xprop", ["-id", id, property]).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Waits (at most 10 s) until `check` holds for window `id`'s `xwininfo`; the last one seen.
  func waitFor(_ id: String, _ check: (Info) throws -> Bool) throws -> Info {
    let deadline = Date().addingTimeInterval(10)
    var last = try info(id)
    while Date() < deadline {
      last = try info(id)
      if try check(last) { return last }
      usleep(50_000)
    }
    return last
  }

  /// Waits (at most 10 s) until `property` of window `id` satisfies `check`; the last value seen.
  func waitForProperty(_ id: String, _ name: String, _ check: (String) -> Bool) throws -> String {
    let deadline = Date().addingTimeInterval(10)
    var last = ""
    while Date() < deadline {
      last = try property(id, name)
      if check(last) { return last }
      usleep(50_000)
    }
    return last
  }

  /// The JSON after `prefix ` on a line of the app's stdout (its page's console), once it is there.
  func json(after prefix: String, in app: ChildProcess, timeout: Double = 30) -> [String: Any] {
    guard app.waitForOutput(prefix + " ", timeout: timeout) else { return [:] }
    let line = app.stdout.split(separator: "\n").first { $0.contains(prefix + " ") } ?? ""
    let text = line[line.range(of: prefix + " ")!.upperBound...]
    return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
  }
}
