import NBridgePlugin
import NBridgeTesting
import Testing

@testable import NBridgePasteboard

/// The shared store through the runtime: separate runs (apps) that share the user's shared dir.
@Suite(.serialized) struct SharedPasteboardTests {
  @Test func separateAppsShareTheGeneralPasteboardAndItsCount() async throws {
    let shared = try TemporaryDirectory()
    _ = try await PasteboardHarness.evaluate(
      "await nbridge.pasteboard.setString({string: 'from the sender'})", shared: shared.path)
    let received = try await PasteboardHarness.evaluate(
      """
      const text = await nbridge.pasteboard.getString();
      await nbridge.pasteboard.setString({string: 'reply'});
      return [text, await nbridge.pasteboard.changeCount()];
      """, shared: shared.path)
    #expect(received == ["from the sender", 2])
    #expect(try PasteboardStore(sharedDirectory: shared.path).read(.general)?.text == "reply")
  }

  @Test func aNamedPasteboardOutlivesTheAppThatMadeIt() async throws {
    let shared = try TemporaryDirectory()
    _ = try await PasteboardHarness.evaluate(
      """
      await nbridge.pasteboard.create({name: 'com.example.handoff'});
      await nbridge.pasteboard.setString({name: 'com.example.handoff', string: 'order #42'});
      """, shared: shared.path)
    let later = try await PasteboardHarness.evaluate(
      """
      const name = 'com.example.handoff';
      const found = [await nbridge.pasteboard.getString({name}), await nbridge.pasteboard.changeCount({name})];
      await nbridge.pasteboard.remove({name});
      try { await nbridge.pasteboard.getString({name}); } catch (e) { found.push(e.code); }
      return found;
      """, shared: shared.path)
    #expect(later == ["order #42", 1, "not_found"])
  }

  @Test func aListenerHearsEveryPasteboardAndStopsWhenRemoved() async throws {
    let shared = try TemporaryDirectory()
    let heard = try await PasteboardHarness.evaluate(
      """
      const pb = nbridge.pasteboard;
      await pb.create({name: 'chat'});
      const seen = [];
      let wake = () => {};
      const handle = pb.addListener('change', (change) => { seen.push(change); wake(); });
      const until = (n) => new Promise((resolve) => {
        const check = () => (seen.length >= n ? resolve() : (wake = check));
        check();
      });
      await pb.setString({string: 'general'});
      await until(1);
      await pb.setString({name: 'chat', string: 'named'});
      await until(2);
      handle.remove();
      await pb.setString({string: 'unheard'});
      await new Promise((resolve) => setTimeout(resolve, 150));
      return seen;
      """, shared: shared.path)
    #expect(heard == [["name": nil, "changeCount": 1], ["name": "chat", "changeCount": 1]])
  }
}
