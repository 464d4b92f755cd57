import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

@testable import NBridgePasteboard

/// The general pasteboard on a real X server (`Xvfb`), with `xclip` as the other application.
@Suite(.serialized) struct X11PasteboardTests {
  init() { TestLoop.start() }

  @Test @BridgeActor func copiedTextStaysOnTheClipboardAfterThePluginStops() async throws {
    let x = try XvfbServer()
    let dir = try TemporaryDirectory()
    do {
      let app = try PluginFixture(shared: dir.path, environment: desktop(x))
      try await app.call("setString", ["string": "copied by nbridge ✓"])
      #expect(try await app.call("changeCount") == 1)
      #expect(try await app.call("getString") == "copied by nbridge ✓")
      await app.stop()
    }
    let pasted = try await Xclip.paste(display: x.display)
    #expect(pasted.status == 0)
    #expect(pasted.stdout == "copied by nbridge ✓")
    #expect(try await PluginFixture(shared: dir.path, environment: desktop(x)).call("getString") == "copied by nbridge ✓")
  }

  @Test @BridgeActor func anotherApplicationsCopyIsAnEventAndReadable() async throws {
    let x = try XvfbServer()
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: desktop(x))
    app.listeners(1)
    #expect(app.host.holds.count == 1)
    try await Xclip.copy("typed elsewhere", display: x.display)
    #expect(await eventually { app.host.changes == [PasteboardChange(name: nil, changeCount: 1)] })
    #expect(try await app.call("getString") == "typed elsewhere")
    try await Xclip.copy("and again", display: x.display)
    #expect(await eventually { app.host.changes.last == PasteboardChange(name: nil, changeCount: 2) })
    #expect(try await app.call("getString") == "and again")
    app.listeners(0)
    #expect(app.host.holds.isEmpty)
    #expect(app.host.watchIDs.isEmpty, "no descriptor is watched without a listener or a read")
    try await Xclip.copy("unheard", display: x.display)
    let count = try await app.call("changeCount")
    #expect(count == 3, "changes without a listener are still counted")
    #expect(app.host.changes.count == 2, "but not sent")
    await app.stop()
  }

  @Test @BridgeActor func emptyAndClearedClipboardHoldNoString() async throws {
    let x = try XvfbServer()
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: desktop(x))
    #expect(try await app.call("getString") == .null)
    #expect(try await app.call("hasString") == false)
    try await app.call("setString", ["string": "short-lived"])
    let has = try await app.call("hasString")
    #expect(has == true)
    try await app.call("clear")
    #expect(try await app.call("getString") == .null)
    #expect(try await app.call("changeCount") == 2)
    #expect(try await Xclip.paste(display: x.display).status != 0, "xclip finds no selection either")
    await app.stop()
  }

  @Test @BridgeActor func largeTextTravelsBothWays() async throws {
    let x = try XvfbServer()
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: desktop(x))
    // Far above the X server's request size, so xclip sends it with the INCR protocol.
    let line = "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 ünïcödé\n"
    let big = String(repeating: line, count: 3 * 1024 * 1024 / line.utf8.count)
    try await Xclip.copy(big, display: x.display)
    let read = try await app.call("getString")
    #expect(read.stringValue?.count == big.count)
    #expect(read.stringValue == big)
    let mine = "é" + big
    try await app.call("setString", ["string": .string(mine)])
    #expect(try await Xclip.paste(display: x.display).stdout == mine)
    await app.stop()
  }

  @Test @BridgeActor func anOwnerOfferingOnlyStringIsRead() async throws {
    let x = try XvfbServer()
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: desktop(x))
    try await Xclip.copy("plain old STRING", display: x.display, target: "STRING")
    #expect(try await app.call("getString") == "plain old STRING")
    await app.stop()
  }

  @Test @BridgeActor func anUnreachableDisplayIsUnavailableNotAFallback() async throws {
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: ["DISPLAY": ":989"])
    for (action, options) in [
      ("getString", [:]), ("hasString", [:]), ("setString", ["string": "x"]), ("clear", [:]), ("changeCount", [:]),
    ] as [(String, JSONValue)] {
      let error = await app.error(action, options)
      #expect(error?.code == .unavailable, "\(action)")
      #expect(error?.message.contains("cannot open X display \":989\"") == true, "\(error?.message ?? "")")
    }
    try await app.call("create", ["name": "still works"])
    try await app.call("setString", ["name": "still works", "string": "named pasteboards use the shared store"])
    #expect(try await app.call("getString", ["name": "still works"]) == "named pasteboards use the shared store")
    #expect(try PasteboardStore(sharedDirectory: dir.path).read(.general) == nil, "no silent fallback")
    await app.stop()
  }

  @Test @BridgeActor func aDisplayThatGoesAwayIsUnavailableAndTheProcessLives() async throws {
    let x = try XvfbServer()
    let dir = try TemporaryDirectory()
    let app = try PluginFixture(shared: dir.path, environment: desktop(x))
    app.listeners(1)
    try await app.call("setString", ["string": "before"])
    x.stop()
    // The loop notices the closed socket; then every call is refused instead of exiting the process.
    let error = await app.error("getString")
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains(x.display) == true, "\(error?.message ?? "")")
    #expect(await app.error("changeCount")?.code == .unavailable)
    app.listeners(0)
    await app.stop()
  }
}

/// The test's environment with `DISPLAY` pointing at `x`.
private func desktop(_ x: XvfbServer) -> [String: String] {
  var environment = ProcessInfo.processInfo.environment
  environment["DISPLAY"] = x.display
  environment["WAYLAND_DISPLAY"] = nil
  return environment
}
