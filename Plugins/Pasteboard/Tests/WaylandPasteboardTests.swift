import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

@testable import NBridgePasteboard

/// The Wayland backend's use of wl-clipboard's tools. No compositor with the data-control
/// protocol runs here, so stand-ins for `wl-copy` and `wl-paste` with the same command line,
/// output and exit codes keep the clipboard in a file; what they check is how the plugin
/// drives the tools, not a compositor.
@Suite(.serialized) struct WaylandPasteboardTests {
  init() { TestLoop.start() }

  @Test @BridgeActor func actionsAndEventsGoThroughWlClipboard() async throws {
    let tools = try FakeWlClipboard()
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: tools.environment)
    #expect(try await app.call("getString") == .null)
    #expect(try await app.call("hasString") == false)
    app.listeners(1)
    try await app.call("setString", ["string": "wayland text\nwith two lines"])
    #expect(try await app.call("getString") == "wayland text\nwith two lines")
    #expect(await eventually { app.host.changes == [PasteboardChange(name: nil, changeCount: 1)] })
    try tools.copyElsewhere("from another client")
    #expect(await eventually { app.host.changes.last == PasteboardChange(name: nil, changeCount: 2) })
    #expect(try await app.call("getString") == "from another client")
    try await app.call("clear")
    #expect(await eventually { app.host.changes.last == PasteboardChange(name: nil, changeCount: 3) })
    #expect(try await app.call("getString") == .null)
    app.listeners(0)
    await app.stop()
    #expect(tools.watcherStopped(), "the wl-paste --watch helper is stopped with the plugin")
  }

  @Test @BridgeActor func missingWlClipboardIsUnavailableWithAHint() async throws {
    let empty = try TemporaryDirectory()
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: ["WAYLAND_DISPLAY": "wayland-9", "PATH": empty.path])
    let error = await app.error("getString")
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains("apt-get install wl-clipboard") == true)
    await app.stop()
  }
}

/// `wl-copy`/`wl-paste` stand-ins on a private `PATH`, keeping the clipboard in a file and
/// announcing each change on a log that `wl-paste --watch` follows.
private final class FakeWlClipboard {
  let folder: TemporaryDirectory

  init() throws {
    folder = try TemporaryDirectory(prefix: "fake-wl")
    let state = folder.path
    try script(
      "wl-copy",
      """
      #!/bin/sh
      if [ "$1" = "--clear" ]; then rm -f \(state)/clip; else cat > \(state)/clip.new && mv \(state)/clip.new \(state)/clip; fi
      echo change >> \(state)/events
      """)
    try script(
      "wl-paste",
      """
      #!/bin/sh
      if [ "$1" = "--watch" ]; then
        echo $$ > \(state)/watcher.pid
        touch \(state)/events
        echo "$3"
        exec tail -n 0 -f \(state)/events
      fi
      if [ -f \(state)/clip ]; then cat \(state)/clip; else echo "Nothing is copied" >&2; exit 1; fi
      """)
  }

  var environment: [String: String] {
    ["WAYLAND_DISPLAY": "wayland-test", "PATH": "\(folder.path):/usr/bin:/bin"]
  }

  /// Another client copies `text`.
  func copyElsewhere(_ text: String) throws {
    let result = try ChildProcess.run(folder.file("wl-copy"), [], stdin: text)
    #expect(result.status == 0)
  }

  /// Whether the watcher process has ended.
  func watcherStopped() -> Bool {
    guard let text = try? String(contentsOfFile: folder.file("watcher.pid"), encoding: .utf8),
      let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else { return false }
    return kill(pid, 0) != 0
  }

  private func script(_ name: String, _ body: String) throws {
    let path = try folder.write(name, body + "\n")
    chmod(path, 0o755)
  }
}
