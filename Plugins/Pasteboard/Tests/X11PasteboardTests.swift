import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

@testable import NBridgePasteboard

/// The general pasteboard on a real X server (`Xvfb`), through the runtime, with `xclip`
/// as the other application.
@Suite(.serialized) struct X11PasteboardTests {
  @Test func copiedTextStaysOnTheClipboardAfterTheRun() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    let result = try await PasteboardHarness.evaluate(
      """
      await nbridge.pasteboard.setString({string: 'copied by nbridge ✓'});
      return [await nbridge.pasteboard.changeCount(), await nbridge.pasteboard.getString()];
      """, shared: shared.path, environment: PasteboardHarness.desktop(display: x.display))
    #expect(result == [1, "copied by nbridge ✓"])
    let pasted = try await Xclip.paste(display: x.display)
    #expect(pasted.status == 0)
    #expect(pasted.stdout == "copied by nbridge ✓")
    #expect(try PasteboardStore(sharedDirectory: shared.path).read(.general) == nil, "the shared store is not used")
  }

  @Test func anotherApplicationsCopiesAreReadAndCounted() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    try await Xclip.copy("typed elsewhere", display: x.display)
    // The script copies a marker and waits until another application replaces it.
    async let script = PasteboardHarness.evaluate(
      """
      const pb = nbridge.pasteboard;
      const first = await pb.getString();
      await pb.setString({string: 'marker'});
      let text = 'marker';
      for (let i = 0; i < 400 && text === 'marker'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        text = await pb.getString();
      }
      return [first, text, await pb.changeCount(), await pb.hasString()];
      """, shared: shared.path, environment: PasteboardHarness.desktop(display: x.display))
    try await Xclip.waitFor("marker", display: x.display)
    try await Xclip.copy("and again", display: x.display)
    #expect(try await script == ["typed elsewhere", "and again", 2, true])
  }

  @Test func emptyAndClearedClipboardHoldNoString() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    let result = try await PasteboardHarness.evaluate(
      """
      const pb = nbridge.pasteboard;
      const found = [await pb.getString(), await pb.hasString()];
      await pb.setString({string: 'short-lived'});
      found.push(await pb.hasString());
      await pb.clear();
      found.push(await pb.getString(), await pb.hasString(), await pb.changeCount());
      return found;
      """, shared: shared.path, environment: PasteboardHarness.desktop(display: x.display))
    #expect(result == [nil, false, true, nil, false, 2])
    #expect(try await Xclip.paste(display: x.display).status != 0, "xclip finds no selection either")
  }

  @Test func largeTextTravelsBothWays() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    // Far above the X server's request size, so xclip sends it with the INCR protocol.
    let line = "ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 ünïcödé\n"
    let big = String(repeating: line, count: 3 * 1024 * 1024 / line.utf8.count)
    try await Xclip.copy(big, display: x.display)
    let read = try await PasteboardHarness.evaluate(
      """
      const text = await nbridge.pasteboard.getString();
      await nbridge.pasteboard.setString({string: 'é' + text});
      return text;
      """, shared: shared.path, environment: PasteboardHarness.desktop(display: x.display))
    #expect(read.stringValue?.utf8.count == big.utf8.count)
    #expect(read.stringValue == big)
    #expect(try await Xclip.paste(display: x.display).stdout == "é" + big)
  }

  @Test func anOwnerOfferingOnlyStringIsRead() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    try await Xclip.copy("plain old STRING", display: x.display, target: "STRING")
    let read = try await PasteboardHarness.evaluate(
      "return await nbridge.pasteboard.getString();", shared: shared.path,
      environment: PasteboardHarness.desktop(display: x.display))
    #expect(read == "plain old STRING")
  }

  @Test func anUnreachableDisplayIsUnavailableNotAFallback() async throws {
    let shared = try TemporaryDirectory()
    var environment = PasteboardHarness.desktop(display: ":989")
    environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
    let result = try await PasteboardHarness.evaluate(
      """
      const pb = nbridge.pasteboard;
      const codes = [];
      for (const call of [() => pb.getString(), () => pb.hasString(), () => pb.setString({string: 'x'}),
                          () => pb.clear(), () => pb.changeCount()]) {
        try { await call(); codes.push('resolved'); } catch (e) { codes.push(e.code + ' ' + e.message); }
      }
      await pb.create({name: 'still works'});
      await pb.setString({name: 'still works', string: 'named pasteboards use the shared store'});
      codes.push(await pb.getString({name: 'still works'}));
      return codes;
      """, shared: shared.path, environment: environment)
    let lines = result.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(lines.count == 6)
    for (line, action) in zip(lines, ["getString", "hasString", "setString", "clear", "changeCount"]) {
      #expect(line.hasPrefix("unavailable pasteboard.\(action): cannot open X display \":989\""), "\(line)")
    }
    #expect(lines.last == "named pasteboards use the shared store")
    #expect(try PasteboardStore(sharedDirectory: shared.path).read(.general) == nil, "no silent fallback")
  }

  @Test func aDisplayThatGoesAwayIsUnavailableAndTheRunGoesOn() async throws {
    let x = try XvfbServer()
    let shared = try TemporaryDirectory()
    let environment = PasteboardHarness.desktop(display: x.display)
    try await NBridgeTest.withRuntime(plugins: [PasteboardPlugin.self], realTime: true) { configuration in
      configuration.sharedDirectory = shared.path
      configuration.headless = false
      configuration.environment = environment
    } _: { rt in
      // The display goes away only once the write has been answered.
      _ = try await rt.evaluate(
        """
        globalThis.handle = nbridge.pasteboard.addListener('change', () => {});
        await nbridge.pasteboard.setString({string: 'before'});
        """)
      #expect(try await Xclip.paste(display: x.display).stdout == "before")
      x.stop()
      let outcome = try await rt.evaluate(
        """
        for (let i = 0; i < 400; i++) {
          try { await nbridge.pasteboard.getString(); } catch (e) { return e.code + ' ' + e.message; }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return 'the display never went away';
        """
      ).stringValue ?? ""
      #expect(outcome.hasPrefix("unavailable pasteboard.getString: "), "\(outcome)")
      #expect(outcome.contains(x.display), "\(outcome)")
      // The run goes on: the listener comes off and a named pasteboard still answers.
      let after = try await rt.evaluate(
        """
        handle.remove();
        await nbridge.pasteboard.create({name: 'after'});
        await nbridge.pasteboard.setString({name: 'after', string: 'still here'});
        return await nbridge.pasteboard.getString({name: 'after'});
        """)
      #expect(after == "still here")
    }
  }
}
