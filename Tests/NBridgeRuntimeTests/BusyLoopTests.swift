import Glibc
import NBridgePlugin
import NBridgeTesting
import Testing

/// The loop while work is queued turn after turn (each answer starting the next call): it runs
/// that work without polling for a few turns, and still sees a ready descriptor within a few.
@Suite struct BusyLoopTests {
  @Test func aReadyDescriptorIsSeenWithinAFewTurnsOfABusyQueue() async throws {
    let turns = try await NBridgeTest.evaluate("return await nbridge.spin.readyWhileBusy()", plugins: [SpinPlugin.self])
    // The queue never empties (each job posts the next); the readable pipe still answers, after
    // a few turns rather than never (the loop gives up after 100,000 and answers that count).
    if case .number(let count) = turns {
      #expect(count >= 1 && count <= 16)
    } else {
      Issue.record("answered \(turns)")
    }
  }
}

/// Test plugin: keeps the loop's queue busy until a pipe it made readable is seen.
@BridgeActor
final class SpinPlugin: Plugin {
  nonisolated static let definition = PluginDefinition<SpinPlugin>(
    service: "spin", summary: "Test plugin: a busy queue and a ready descriptor.",
    actions: [
      Action("readyWhileBusy", result: .number) { (plugin, _: JSONValue, _, reply: Reply<JSONValue>) in
        plugin.readyWhileBusy(reply)
      }
    ])

  private let context: PluginContext

  init(context: PluginContext) { self.context = context }

  /// Posts job after job, counting them, until the pipe's read end is seen readable.
  private func readyWhileBusy(_ reply: Reply<JSONValue>) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return reply.reject(BridgeError.unavailable("pipe failed")) }
    var byte: UInt8 = 1
    _ = write(fds[1], &byte, 1)
    let busy = BusyQueue(fds: fds, reply: reply)
    PluginContext.post { busy.spin() }
    busy.watch = context.watchReadable(fds[0]) { busy.finish() }
  }
}

/// One job after another on the loop until `finish`.
@BridgeActor
private final class BusyQueue {
  let fds: [Int32]
  let reply: Reply<JSONValue>
  var watch: DescriptorWatch?
  var turns = 0
  var done = false

  init(fds: [Int32], reply: Reply<JSONValue>) {
    self.fds = fds
    self.reply = reply
  }

  func spin() {
    guard !done else { return }
    turns += 1
    if turns == 100_000 { return finish() }
    PluginContext.post { self.spin() }
  }

  func finish() {
    guard !done else { return }
    done = true
    watch?.cancel()
    close(fds[0])
    close(fds[1])
    reply.resolve(.number(Double(turns)))
  }
}
