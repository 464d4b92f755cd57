import Foundation
import NBridgeTesting
import Testing

/// Real `nbridge run` processes handing text to each other and to `xclip`.
@Suite(.serialized) struct PasteboardEndToEndTests {
  @Test func twoAppsExchangeTextThroughTheSharedGeneralPasteboard() throws {
    let shared = try TemporaryDirectory()
    let sender = try App(shared: shared, script: "await nbridge.pasteboard.setString({string: nbridge.args[0]});")
    let receiver = try App(shared: shared, script: "console.log(JSON.stringify(await nbridge.pasteboard.getString()));")
    #expect(try sender.run(["--", "from the sender 📋"]).status == 0)
    let read = try receiver.run()
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stdout == "\"from the sender 📋\"\n")
  }

  @Test func twoAppsHandOffThroughANamedPasteboard() throws {
    let shared = try TemporaryDirectory()
    let appA = try App(
      shared: shared,
      script: """
        await nbridge.pasteboard.create({name: 'com.example.handoff'});
        await nbridge.pasteboard.setString({name: 'com.example.handoff', string: 'order #42'});
        """)
    let appB = try App(
      shared: shared,
      script: """
        const name = 'com.example.handoff';
        console.log(await nbridge.pasteboard.getString({name}), await nbridge.pasteboard.changeCount({name}));
        await nbridge.pasteboard.remove({name});
        try { await nbridge.pasteboard.getString({name}); } catch (e) { console.log(e.code); }
        """)
    #expect(try appA.run().status == 0)
    let handedOff = try appB.run()
    #expect(handedOff.status == 0, "\(handedOff.stderr)")
    #expect(handedOff.stdout == "order #42 1\nnot_found\n")
  }

  @Test func aWatcherHearsAnotherProcessesChanges() throws {
    let shared = try TemporaryDirectory()
    let watcher = try App(
      shared: shared,
      script: """
        await nbridge.pasteboard.create({name: 'chat'});
        const seen = [];
        const handle = nbridge.pasteboard.addListener('change', async (change) => {
          seen.push(change);
          if (seen.length === 2) {
            handle.remove();
            console.log(JSON.stringify(seen), await nbridge.pasteboard.getString({name: 'chat'}));
          }
        });
        console.log('listening');
        """)
    let writer = try App(
      shared: shared,
      script: """
        await nbridge.pasteboard.setString({string: 'general'});
        await nbridge.pasteboard.setString({name: 'chat', string: 'named'});
        """)
    let listening = try watcher.start()
    #expect(listening.waitForOutput("listening"))
    #expect(try writer.run().status == 0)
    #expect(listening.wait(timeout: 10) == 0, "the watcher ends once its listener is removed")
    let lines = listening.stdout.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.last?.contains("{\"name\":null,\"changeCount\":1}") == true, "\(listening.stdout)")
    #expect(lines.last?.contains("{\"name\":\"chat\",\"changeCount\":1}") == true, "\(listening.stdout)")
    #expect(lines.last?.hasSuffix(" named") == true)
  }

  @Test func aChangeListenerKeepsTheRunAliveUntilRemoved() throws {
    let shared = try TemporaryDirectory()
    let forever = try App(shared: shared, script: "nbridge.pasteboard.addListener('change', () => {});")
    let kept = try forever.run(["--timeout", "1"])
    #expect(kept.status == 124, "still listening when the watchdog fires: \(kept.stderr)")
    let removed = try App(
      shared: shared, script: "nbridge.pasteboard.addListener('change', () => {}).remove(); console.log('done');")
    let ended = try removed.run(["--timeout", "10"])
    #expect(ended.status == 0)
    #expect(ended.stdout == "done\n")
  }

  @Test func aScriptsCopyOutlivesItOnX11() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    let copier = try App(shared: shared, script: "await nbridge.pasteboard.setString({string: 'left behind'});")
    let copied = try copier.run(display: x.display)
    #expect(copied.status == 0, "\(copied.stderr)")
    #expect(try await Xclip.paste(display: x.display).stdout == "left behind")
  }

  @Test func anX11WatcherHearsXclipAndReadsItsText() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    let watcher = try App(
      shared: shared,
      script: """
        const handle = nbridge.pasteboard.addListener('change', async (change) => {
          handle.remove();
          console.log(JSON.stringify(change), await nbridge.pasteboard.getString());
        });
        await nbridge.pasteboard.changeCount();
        console.log('listening');
        """)
    let listening = try watcher.start(display: x.display)
    #expect(listening.waitForOutput("listening"))
    try await Xclip.copy("copied in xclip", display: x.display)
    #expect(listening.wait(timeout: 10) == 0, "\(listening.stderr)")
    #expect(listening.stdout == "listening\n{\"name\":null,\"changeCount\":1} copied in xclip\n")
  }

  @Test func anUnreachableDisplayIsUnavailable() throws {
    let shared = try TemporaryDirectory()
    let app = try App(
      shared: shared,
      script: "try { await nbridge.pasteboard.getString(); } catch (e) { console.log(e.code, e.message); }")
    let result = try app.run(display: ":989")
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix("unavailable pasteboard.getString: cannot open X display \":989\""), "\(result.stdout)")
  }
}

/// A one-file nbridge app with its own data dir, sharing `shared` with the other apps of a test.
private struct App {
  let folder: TemporaryDirectory
  let shared: TemporaryDirectory
  let script: String

  init(shared: TemporaryDirectory, script: String) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-app")
    self.shared = shared
    // Scripts are classic scripts (no top-level await): run the body as an async function.
    self.script = try folder.write("main.js", "(async () => {\n\(script)\n})();\n")
  }

  private func environment(display: String?) -> [String: String?] {
    var environment = NBridgeTest.headless
    environment["NBRIDGE_DATA_DIR"] = folder.file("data")
    environment["NBRIDGE_SHARED_DIR"] = shared.path
    environment["NBRIDGE_PASTEBOARD_BACKEND"] = nil
    if let display { environment["DISPLAY"] = display }
    return environment
  }

  func run(_ arguments: [String] = [], display: String? = nil) throws -> (status: Int32, stdout: String, stderr: String)
  {
    let options = arguments.first == "--timeout" ? Array(arguments.prefix(2)) : []
    let rest = arguments.first == "--timeout" ? Array(arguments.dropFirst(2)) : arguments
    return try NBridgeTest.command(
      ["run"] + options + [script] + rest, environment: environment(display: display), timeout: 30)
  }

  func start(display: String? = nil) throws -> ChildProcess {
    try NBridgeTest.start(["run", "--timeout", "20", script], environment: environment(display: display))
  }
}
