import NBridgePlugin
import NBridgeTesting
import Testing

@testable import NBridgePasteboard

/// The plugin's actions on the shared store (headless, as under `nbridge test`).
@Suite struct SharedPasteboardPluginTests {
  init() { TestLoop.start() }

  @Test @BridgeActor func generalPasteboardRoundTrip() async throws {
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: ["DISPLAY": ":0"], headless: true)
    #expect(try await app.call("getString") == .null)
    #expect(try await app.call("hasString") == false)
    #expect(try await app.call("changeCount") == 0)
    try await app.call("setString", ["string": "hello"])
    #expect(try await app.call("getString") == "hello")
    #expect(try await app.call("getString", ["name": nil]) == "hello")
    #expect(try await app.call("hasString") == true)
    #expect(try await app.call("changeCount") == 1)
    try await app.call("clear")
    #expect(try await app.call("getString") == .null)
    #expect(try await app.call("hasString") == false)
    #expect(try await app.call("changeCount") == 2)
  }

  @Test @BridgeActor func twoAppsShareTheGeneralPasteboardAndItsCount() async throws {
    let dir = try TemporaryDirectory()
    let sender = try PluginFixture(shared: dir.path, headless: true)
    let receiver = try PluginFixture(shared: dir.path, headless: true)
    try await sender.call("setString", ["string": "from the sender"])
    #expect(try await receiver.call("getString") == "from the sender")
    try await receiver.call("setString", ["string": "reply"])
    #expect(try await sender.call("getString") == "reply")
    #expect(try await sender.call("changeCount") == 2)
  }

  @Test @BridgeActor func namedPasteboardLifecycle() async throws {
    let dir = try TemporaryDirectory()
    let a = try PluginFixture(shared: dir.path, headless: true)
    let b = try PluginFixture(shared: dir.path, headless: true)
    let name: JSONValue = ["name": "com.example.handoff"]
    for action in ["getString", "hasString", "clear", "changeCount", "remove"] {
      #expect(await a.error(action, name)?.code == .notFound, "\(action) before create")
    }
    #expect(await a.error("setString", ["name": "com.example.handoff", "string": "x"])?.code == .notFound)
    try await a.call("create", name)
    #expect(try await b.call("getString", name) == .null)
    #expect(try await b.call("changeCount", name) == 0)
    try await a.call("setString", ["name": "com.example.handoff", "string": "the data"])
    #expect(try await b.call("getString", name) == "the data")
    #expect(try await b.call("hasString", name) == true)
    #expect(try await b.call("changeCount", name) == 1)
    #expect(try await b.call("getString") == .null, "the general pasteboard is separate")
    try await b.call("clear", name)
    #expect(try await a.call("hasString", name) == false)
    #expect(try await a.call("changeCount", name) == 2)
    try await b.call("remove", name)
    #expect(await a.error("getString", name)?.code == .notFound)
    #expect(await a.error("getString", name)?.message.contains("com.example.handoff") == true)
  }

  @Test @BridgeActor func namedPasteboardSurvivesTheApp() async throws {
    let dir = try TemporaryDirectory()
    do {
      let first = try PluginFixture(shared: dir.path, headless: true)
      try await first.call("create", ["name": "kept"])
      try await first.call("setString", ["name": "kept", "string": "still here"])
      await first.stop()
    }
    let later = try PluginFixture(shared: dir.path, headless: true)
    #expect(try await later.call("getString", ["name": "kept"]) == "still here")
  }

  @Test @BridgeActor func badInputIsInvalidParameterNamingTheField() async throws {
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, headless: true)
    let cases: [(String, JSONValue, String)] = [
      ("setString", ["string": 42], "\"string\""),
      ("setString", [:], "\"string\""),
      ("setString", ["string": nil], "\"string\""),
      ("setString", ["string": "x", "name": ""], "\"name\""),
      ("getString", ["name": "a/b"], "\"name\""),
      ("getString", ["name": 7], "\"name\""),
      ("create", [:], "\"name\""),
      ("create", ["name": ".."], "\"name\""),
      ("remove", ["name": .string(String(repeating: "n", count: 200))], "\"name\""),
      ("changeCount", ["name": "bad\nname"], "\"name\""),
    ]
    for (action, options, field) in cases {
      let error = await app.error(action, options)
      #expect(error?.code == .invalidParameter, "\(action) \(options)")
      #expect(error?.message.hasPrefix(field) == true, "\(action): \(error?.message ?? "resolved")")
    }
  }

  @Test @BridgeActor func textOverTheLimitIsRejectedAndNothingIsWritten() async throws {
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, headless: true)
    let tooBig = String(repeating: "x", count: maxTextBytes + 1)
    let error = await app.error("setString", ["string": .string(tooBig)])
    #expect(error?.code == .invalidParameter)
    #expect(error?.message.contains("16 MiB") == true)
    #expect(try await app.call("changeCount") == 0)
    let atLimit = String(repeating: "y", count: maxTextBytes)
    try await app.call("setString", ["string": .string(atLimit)])
    #expect(try await app.call("getString") == .string(atLimit))
  }

  @Test @BridgeActor func changeEventsComeFromOtherProcessesWhileListening() async throws {
    let dir = try TemporaryDirectory()
    let watcher = try PluginFixture(shared: dir.path, headless: true)
    let other = try PluginFixture(shared: dir.path, headless: true)
    try await other.call("create", ["name": "chat"])
    watcher.listeners(1)
    #expect(watcher.host.holds.count == 1, "a change listener keeps the run alive")
    try await other.call("setString", ["string": "general text"])
    try await other.call("setString", ["name": "chat", "string": "named text"])
    let both = await eventually { watcher.host.changes.count >= 2 }
    #expect(both)
    // One event each; the general and named pasteboards have separate watchers, so no order between them.
    #expect(watcher.host.changes.count == 2)
    #expect(watcher.host.changes.contains(PasteboardChange(name: nil, changeCount: 1)))
    #expect(watcher.host.changes.contains(PasteboardChange(name: "chat", changeCount: 1)))
    try await watcher.call("clear")
    #expect(await eventually { watcher.host.changes.last == PasteboardChange(name: nil, changeCount: 2) })

    watcher.listeners(0)
    #expect(watcher.host.holds.isEmpty, "removing the last listener releases the run")
    #expect(watcher.host.watchIDs.isEmpty, "and stops watching")
    let before = watcher.host.changes.count
    try await other.call("setString", ["string": "unheard"])
    try await Task.sleep(for: .milliseconds(100))
    #expect(watcher.host.changes.count == before)
  }
}
