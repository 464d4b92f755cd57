import NBridgePlugin
import NBridgeTesting
import Testing

/// Actions that answer later through a `Reply` (the echo plugin's `later` and `dropReply`).
@Suite struct ReplyTests {
  @Test func aReplyResolvesTheCallWhenItAnswers() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const start = Date.now();
      const ms = await nbridge.echo.later({ ms: 30 });
      return [ms, Date.now() - start >= 25];
      """)
    #expect(value == [30, true])
  }

  @Test func aReplyRejectsWithThePluginsCode() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      try { await nbridge.echo.later({ ms: 1, code: 'not_found' }); return 'resolved'; }
      catch (e) { return [e.name, e.code, e.message]; }
      """)
    #expect(value == ["NBridgeError", "not_found", "echo.later: later failed"])
  }

  @Test func aDroppedReplyRejectsInsteadOfHanging() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      try { await nbridge.echo.dropReply(); return 'resolved'; }
      catch (e) { return [e.code, e.message]; }
      """)
    #expect(value == ["unknown_error", "echo.dropReply: the action dropped its reply without answering"])
  }

  @Test func aReplyOverItsTimeLimitTimesOutAndThePluginIsTold() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      let code;
      try { await nbridge.echo.later({ ms: 3000 }); } catch (e) { code = e.code; }
      return [code, await nbridge.echo.cancelledReplies(), await nbridge.echo.later({ ms: 1 })];
      """)
    #expect(value == ["timeout", 1, 1])
  }

  @Test func tenThousandPendingRepliesAllSettle() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const calls = [];
      for (let i = 0; i < 10000; i++) calls.push(nbridge.echo.later({ ms: i % 7, code: i % 2 ? 'not_found' : undefined }));
      const outcomes = await Promise.allSettled(calls);
      return [outcomes.filter(o => o.status === 'fulfilled').length, outcomes.filter(o => o.reason?.code === 'not_found').length];
      """)
    #expect(value == [5000, 5000])
  }
}
