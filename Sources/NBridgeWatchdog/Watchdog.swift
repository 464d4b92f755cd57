import NBridgePlugin
import NBridgeRuntime

/// `--timeout` (`RuntimeConfiguration.timeout`) as an extension of the runtime: ends the run
/// after a limit on the loop's clock, even inside `while(true){}`, with status 124.
///
/// A loop timer ends an idle run; JavaScriptCore's script time limit (armed only when asked,
/// since it slows every call) asks every 50 ms of script time whether the deadline passed, and
/// when it has, the run is ended before the script is, so what the script throws is not reported.
@BridgeActor
package final class Watchdog {
  private let limit: Duration
  private var fired = false

  nonisolated init(limit: Duration) { self.limit = limit }

  /// The extension for a run whose configuration has a `timeout`; nil for one without.
  package nonisolated static func makeExtension(_ configuration: RuntimeConfiguration) -> RuntimeExtension? {
    guard let limit = configuration.timeout else { return nil }
    return RuntimeExtension(
      name: "watchdog", state: { _ in Watchdog(limit: limit) },
      hooks: .init(start: { watchdog, host in watchdog.arm(host) }, close: { _, host in host.clearScriptTimeLimit() }))
  }

  /// Starts the limit's timer and JavaScriptCore's check.
  private func arm(_ host: ExtensionHost) {
    let clock = host.loop.clock
    let deadline = clock.now() + limit
    host.limitScriptTime(checkingEvery: 0.05) { [weak self] in
      guard clock.now() >= deadline else { return false }
      self?.end(host)
      return true
    }
    _ = host.loop.addTimer(delay: limit, interval: nil, keepsAlive: false) { [weak self] in self?.end(host) }
  }

  /// Prints the line and ends the run with status 124, once.
  private func end(_ host: ExtensionHost) {
    guard !fired else { return }
    fired = true
    host.print(2, "nbridge: stopped after --timeout \(limit.inSeconds.formattedSeconds)s\n")
    host.exit(ExitStatus.timedOut)
  }
}
