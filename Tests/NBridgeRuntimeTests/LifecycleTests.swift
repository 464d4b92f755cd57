import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Testing

/// Moves the lifecycle from a plugin, as the window or the control socket do, and makes native
/// work (timers that emit) that goes on while the app is suspended.
@BridgeActor
final class LifecycleDriverPlugin: Plugin {
  nonisolated static let definition = PluginDefinition<LifecycleDriverPlugin>(
    service: "driver",
    actions: [
      Action("move", options: .fields(["state": .string, "back?": .number])) { (plugin, options: Move, _) in
        let lifecycle = plugin.context.lifecycle
        lifecycle.move(to: AppState(rawValue: options.state) ?? .active)
        if let back = options.back {
          plugin.timers.append(plugin.context.setTimer(after: back / 1000) { lifecycle.move(to: .active) })
        }
        return JSONValue.null
      },
      Action("emitLater", options: .fields(["ms": .number, "event": .string, "payload": .any])) {
        (plugin, options: EmitLater, _) in
        plugin.timers.append(
          plugin.context.setTimer(after: options.ms / 1000) {
            plugin.suspendedAtEmits.append(plugin.context.lifecycle.isSuspended)
            plugin.context.emit(options.event, options.payload)
          })
        return JSONValue.null
      },
      Action("suspendedAtEmits", result: .array(.boolean)) { (plugin, _: NoOptions, _) in plugin.suspendedAtEmits },
    ],
    events: [
      EventSpec("ping", payload: .any),
      EventSpec("change", payload: .any, coalescesWhileSuspended: true),
    ])

  struct Move: Decodable {
    var state: String
    var back: Double?
  }

  struct EmitLater: Decodable {
    var ms: Double
    var event: String
    var payload: JSONValue
  }

  let context: PluginContext
  var timers: [LoopTimer] = []
  var suspendedAtEmits: [Bool] = []

  init(context: PluginContext) { self.context = context }
}

@Suite struct LifecycleTests {
  @Test func resultsAndEventsWaitWhileSuspendedAndArriveInOrderWithChangesCoalesced() async throws {
    let log = try await NBridgeTest.evaluate(
      """
      const log = [];
      const started = Date.now();
      nbridge.driver.addListener('ping', (p) => log.push({ what: 'ping ' + p, at: Date.now() - started }));
      nbridge.driver.addListener('change', (p) => log.push({ what: 'change ' + p, at: Date.now() - started }));
      await nbridge.driver.move({ state: 'background', back: 600 });
      // Each answered or emitted while the app is suspended (from 0 to 600 ms).
      const a = nbridge.echo.later({ ms: 100 }).then(() => log.push({ what: 'later 100', at: Date.now() - started }));
      await nbridge.driver.emitLater({ ms: 150, event: 'ping', payload: 'a' });
      await nbridge.driver.emitLater({ ms: 200, event: 'change', payload: 1 });
      await nbridge.driver.emitLater({ ms: 250, event: 'change', payload: 2 });
      await nbridge.driver.emitLater({ ms: 300, event: 'ping', payload: 'b' });
      const b = nbridge.echo.later({ ms: 350 }).then(() => log.push({ what: 'later 350', at: Date.now() - started }));
      await Promise.all([a, b]);
      await new Promise((r) => setTimeout(r, 10));
      return { log, suspended: await nbridge.driver.suspendedAtEmits() };
      """, plugins: [EchoPlugin.self, LifecycleDriverPlugin.self])
    let entries = log["log"]?.arrayValue ?? []
    #expect(
      entries.compactMap { $0["what"]?.stringValue } == ["later 100", "ping a", "change 2", "ping b", "later 350"])
    // Nothing reached JS before the app left background at 600 ms.
    #expect(entries.allSatisfy { ($0["at"]?.numberValue ?? 0) >= 550 }, "\(entries)")
    // The native timers went on while JS waited.
    #expect(log["suspended"] == [true, true, true, true])
  }

  @Test func aSuspendedRunWithAPendingIntervalWaitsForResume() async throws {
    let outcome = try await NBridgeTest.run(
      """
      let n = 0;
      const started = Date.now();
      const id = setInterval(() => {
        n++;
        if (n === 3) { clearInterval(id); console.log('done after ' + (Date.now() - started >= 450)); }
      }, 20);
      nbridge.driver.move({ state: 'background', back: 500 });
      """, plugins: [LifecycleDriverPlugin.self])
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "done after true\n")
  }

  @Test func aSuspendedRunWithNothingToWaitForEnds() async throws {
    let outcome = try await NBridgeTest.run(
      """
      nbridge.driver.move({ state: 'background' });
      console.log('moved');
      """, plugins: [LifecycleDriverPlugin.self])
    #expect(outcome.status == 0)
    #expect(outcome.stdout == "moved\n")
  }
}
