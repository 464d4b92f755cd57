import NBridgePlugin
import NBridgeTesting
import Synchronization
import Testing

@Suite struct BridgeCallTests {
  @Test func convertsEveryKindBothWays() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      return await nbridge.echo.echo({
        s: 'héllo 👋 \\u0000 "q"', n: -12.5, big: 9007199254740992, t: true, f: false, z: null,
        arr: [1, [2, [3]], {}], obj: { nested: { deep: 'x' } }, empty: '', u: undefined, d: new Date(0)
      });
      """)
    #expect(value["s"] == "héllo 👋 \u{0000} \"q\"")
    #expect(value["n"] == -12.5)
    #expect(value["big"] == .number(9_007_199_254_740_992))
    #expect(value["t"] == true && value["f"] == false && value["z"] == .null)
    #expect(value["arr"] == [1, [2, [3]], [:]])
    #expect(value["obj"]?["nested"]?["deep"] == "x")
    #expect(value["empty"] == "")
    #expect(value["u"] == nil)
    #expect(value["d"] == "1970-01-01T00:00:00.000Z")
  }

  @Test func resultsComeBackWithTheirJSTypes() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const r = await nbridge.echo.echoAsync({ a: [1, 'two', null, true, { b: 2.5 }] });
      return [typeof r.a[0], typeof r.a[1], r.a[2], typeof r.a[3], r.a[4].b, Array.isArray(r.a)];
      """)
    #expect(value == ["number", "string", nil, "boolean", 2.5, true])
  }

  /// A call made while another is running: the sync `emit` action delivers its event inside its
  /// own call, and the listener calls the bridge again. Both answer, in the order a script expects
  /// (the runtime holds JavaScriptCore's API lock across a native function, and the inner call
  /// takes it again).
  @Test func aCallMadeInsideAnotherCallAnswersBoth() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const seen = [];
      nbridge.echo.addListener('ping', (payload) => {
        seen.push('listener ' + payload.n);
        nbridge.echo.echo({ inner: payload.n }).then((r) => seen.push('inner ' + r.inner));
      });
      const outer = await nbridge.echo.emit({ event: 'ping', payload: { n: 1 } });
      seen.push('outer ' + outer);
      return seen;
      """)
    #expect(value == ["listener 1", "inner 1", "outer null"])
  }

  @Test(arguments: [
    ("nbridge.nope.x()", "invalid_service"),
    ("nbridge.echo.nope()", "invalid_action_name"),
    ("nbridge.callToNative('nope', 'x', {})", "invalid_service"),
    ("nbridge.callToNative('echo', 'nope', {})", "invalid_action_name"),
    ("nbridge.echo.typed({ key: 'k' })", "invalid_parameter"),
    ("nbridge.echo.typed({ key: 1, value: 2 })", "invalid_parameter"),
    ("nbridge.echo.echo({ f: () => 1 })", "invalid_parameter"),
    ("nbridge.echo.echo({ n: NaN })", "invalid_parameter"),
    ("nbridge.echo.echo({ b: 10n })", "invalid_parameter"),
    ("nbridge.echo.echo({ s: Symbol('x') })", "invalid_parameter"),
    ("nbridge.echo.echo('not an object')", "invalid_parameter"),
    ("nbridge.echo.fail({ code: 'not_found', message: 'gone' })", "not_found"),
    ("nbridge.echo.crash()", "unknown_error"),
    ("nbridge.echo.slow({ ms: 1000 })", "timeout"),
  ])
  func rejectsWithTheRightCode(call: String, code: String) async throws {
    let value = try await NBridgeTest.evaluate(
      """
      try { await \(call); return 'resolved'; }
      catch (e) { return [e instanceof Error, e.name, e.code, e.message]; }
      """)
    #expect(value[0] == true)
    #expect(value[1] == "NBridgeError")
    #expect(value[2] == .string(code))
  }

  @Test func messagesNameTheCallAndTheField() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const messages = [];
      for (const p of [nbridge.echo.typed({ key: 'k' }), nbridge.echo.typed({ key: 'k', value: 'x' }),
                       nbridge.echo.echo({ value: { a: [1, 2, () => 3] } }), nbridge.echo.crash()]) {
        try { await p; } catch (e) { messages.push(e.message); }
      }
      const cyclic = { a: {} }; cyclic.a.self = cyclic;
      try { await nbridge.echo.echo({ value: cyclic }); } catch (e) { messages.push(e.message); }
      return messages;
      """)
    #expect(value[0] == "echo.typed: \"value\" is required")
    #expect(value[1] == "echo.typed: \"value\" must be an integer (got string)")
    #expect(value[2] == "echo.echo: \"value.a[2]\" must not be a function")
    #expect(value[3] == "echo.crash: the echo plugin crashed on purpose")
    #expect(value[4] == "echo.echo: \"value.a.self\" contains a cycle")
  }

  @Test func timedOutCallIsCancelledAndTheRuntimeGoesOn() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      await assertRejects();
      async function assertRejects() { try { await nbridge.echo.slow({ ms: 300 }); } catch (e) { return e.code; } }
      await nbridge.echo.wait({ ms: 400 });
      return await nbridge.echo.slowCount();
      """)
    #expect(value == 0)
  }

  @Test func retainCallbackReceivesEveryPartialBeforeTheResult() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const seen = [];
      const result = await nbridge.callToNative('echo', 'stream', { count: 5, retainCallback: (n) => seen.push(n) });
      seen.push('result ' + result);
      return seen;
      """)
    #expect(value == [1, 2, 3, 4, 5, "result 5"])
  }

  @Test func hundredThousandPendingCallsAllSettle() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const calls = [];
      for (let i = 0; i < 100000; i++) calls.push(nbridge.echo.echoAsync({ i }));
      const results = await Promise.all(calls);
      let sum = 0;
      for (const r of results) sum += r.i;
      return [results.length, sum];
      """)
    #expect(value == [100_000, .number(4_999_950_000)])
  }

  @Test func answersReachTheirOwnCallsWhenCallsEndOutOfOrderAndTheirPlacesAreReused() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      await Promise.all([1, 2, 3].map((i) => nbridge.echo.echoAsync({ i })));
      const slow = nbridge.echo.later({ ms: 60 });
      const failing = nbridge.echo.later({ ms: 30, code: 'timeout' }).catch((e) => e.code + ' ' + e.message);
      const fast = nbridge.echo.later({ ms: 1 });
      const now = nbridge.echo.echo({ s: 'now' });
      const refused = nbridge.echo.later({ ms: 'soon' }).catch((e) => e.code);
      const after = await fast;
      const again = await nbridge.echo.echoReply({ s: 'again' });
      return [await slow, await failing, after, (await now).s, again.s, await refused];
      """)
    #expect(value == [60, "timeout echo.later: later failed", 1, "now", "again", "invalid_parameter"])
  }

  @Test func deniedServiceRejectsAndDoesNoWork() async throws {
    let before = CountingPlugin.calls.load(ordering: .relaxed)
    let value = try await NBridgeTest.evaluate(
      """
      let code;
      try { await nbridge.counting.touch(); } catch (e) { code = e.code; }
      return code;
      """, plugins: [CountingPlugin.self], configure: { $0.deny = ["counting"] })
    #expect(value == "permission_denied")
    #expect(CountingPlugin.calls.load(ordering: .relaxed) == before, "the denied action ran")
    let allowed = try await NBridgeTest.evaluate("return await nbridge.counting.touch();", plugins: [CountingPlugin.self])
    #expect(allowed == .number(Double(before + 1)))
  }
}

/// Counts every call of its one action, in the plugin itself: what "did no work" is checked against.
@BridgeActor
final class CountingPlugin: Plugin {
  nonisolated static let calls = Atomic<Int>(0)
  nonisolated static let definition = PluginDefinition<CountingPlugin>(
    service: "counting", summary: "Counts its calls.",
    actions: [
      Action("touch", result: .integer) { (_, _: NoOptions, _) in
        CountingPlugin.calls.add(1, ordering: .relaxed).newValue
      }
    ])
  init(context: PluginContext) {}
}
