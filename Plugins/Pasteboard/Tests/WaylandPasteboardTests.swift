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
  @Test func actionsAndEventsGoThroughWlClipboard() async throws {
    let tools = try FakeWlClipboard()
    let shared = try TemporaryDirectory()
    try tools.copyElsewhere("from another client")
    let result = try await PasteboardHarness.evaluate(
      """
      const pb = nbridge.pasteboard;
      const found = [await pb.getString()];
      const seen = [];
      let wake = () => {};
      const handle = pb.addListener('change', (change) => { seen.push(change); wake(); });
      const until = (n) => new Promise((resolve) => {
        const check = () => (seen.length >= n ? resolve() : (wake = check));
        check();
      });
      await pb.setString({string: 'wayland text\\nwith two lines'});
      await until(1);
      found.push(await pb.getString(), await pb.hasString());
      await pb.clear();
      await until(2);
      found.push(await pb.getString(), await pb.hasString(), await pb.changeCount());
      handle.remove();
      return [found, seen];
      """, shared: shared.path, environment: tools.environment)
    #expect(
      result == [
        ["from another client", "wayland text\nwith two lines", true, nil, false, 2],
        [["name": nil, "changeCount": 1], ["name": nil, "changeCount": 2]],
      ])
    #expect(tools.watcherStopped(), "the wl-paste --watch helper is stopped at the end of the run")
  }

  @Test func missingWlClipboardIsUnavailableWithAHint() async throws {
    let empty = try TemporaryDirectory()
    let shared = try TemporaryDirectory()
    let message = try await PasteboardHarness.evaluate(
      "try { await nbridge.pasteboard.getString(); } catch (e) { return e.code + ' ' + e.message; }",
      shared: shared.path, environment: ["WAYLAND_DISPLAY": "wayland-9", "PATH": empty.path])
    #expect(message.stringValue?.hasPrefix("unavailable pasteboard.getString: ") == true, "\(message)")
    #expect(message.stringValue?.contains("apt-get install wl-clipboard") == true)
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
