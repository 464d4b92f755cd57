import NBridgePlugin
import NBridgeTesting
import Testing

/// Calls made while their plugin is still starting wait for the start, then go the way every
/// call goes, whatever kind of action they are; a start that fails rejects them all.
@Suite struct PluginStartTests {
  @Test func callsMadeDuringAStartAreAnsweredOnceItEndsWhateverTheirKind() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const sent = [];
      const calls = [
        nbridge.slowStart.plain({ n: 1 }),
        nbridge.slowStart.later({ n: 2 }),
        nbridge.slowStart.reply({ n: 3 }),
        nbridge.slowStart.bytes(),
        nbridge.slowStart.refuse().catch((e) => e.code + ' ' + e.message),
        nbridge.slowStart.count({ retainCallback: (n) => sent.push(n) }),
      ];
      const [plain, later, reply, bytes, refused, counted] = await Promise.all(calls);
      return { plain, later, reply, bytes: [bytes.constructor.name, ...bytes], refused, counted, sent };
      """, plugins: [SlowStartPlugin.self])
    #expect(value["plain"] == ["n": 1, "started": true])
    #expect(value["later"] == ["n": 2, "started": true])
    #expect(value["reply"] == ["n": 3, "started": true])
    #expect(value["bytes"] == ["Uint8Array", 1, 2, 255])
    #expect(value["refused"] == "not_found slowStart.refuse: nothing here")
    #expect(value["counted"] == 3)
    #expect(value["sent"] == [1, 2, 3])
  }

  @Test func aStartThatFailsRejectsTheCallsThatWaitedForIt() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const codes = await Promise.all([nbridge.slowStart.plain({ n: 1 }), nbridge.slowStart.later({ n: 2 })]
        .map((call) => call.then(() => 'resolved', (e) => e.code + ' ' + e.message)));
      return codes;
      """, plugins: [SlowStartPlugin.self], environment: ["SLOW_START_FAILS": "1"])
    #expect(value == ["unavailable slowStart.plain: the start failed", "unavailable slowStart.later: the start failed"])
  }
}

/// A plugin whose start waits for a turn of the loop (as one waiting on a bus does), with one
/// action of each kind.
@BridgeActor
final class SlowStartPlugin: Plugin {
  struct N: Codable, Sendable {
    var n: Int
    var started: Bool?
  }
  private var started = false
  private let fails: Bool

  nonisolated static let definition = PluginDefinition<SlowStartPlugin>(
    service: "slowStart", summary: "Starts after a turn of the loop.",
    actions: [
      Action("plain", options: .fields(["n": .integer])) { (plugin, options: N, _) in
        N(n: options.n, started: plugin.started)
      },
      Action("later", options: .fields(["n": .integer])) { (plugin, options: N, _) async in
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in PluginContext.post { resume.resume() } }
        return N(n: options.n, started: plugin.started)
      },
      Action("reply", options: .fields(["n": .integer])) { (plugin, options: N, _, reply: Reply<N>) in
        let started = plugin.started
        PluginContext.post { reply.resolve(N(n: options.n, started: started)) }
      },
      Action("bytes") { (_, _: NoOptions, _) -> Bytes in Bytes([1, 2, 255]) },
      Action("refuse") { (_, _: NoOptions, _) throws -> JSONValue in throw BridgeError(.notFound, "nothing here") },
      Action("count", result: .integer, streams: .integer) { (_, _: NoOptions, call) throws in
        for i in 1...3 { try call.send(i) }
        return 3
      },
    ])

  init(context: PluginContext) { fails = context.environment["SLOW_START_FAILS"] == "1" }

  func start() async throws {
    await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in PluginContext.post { resume.resume() } }
    if fails { throw BridgeError(.unavailable, "the start failed") }
    started = true
  }
}
