import CJavaScriptCore
import Glibc
import NBridgePlugin
import Synchronization

/// `--timeout`: ends the run after a limit on the loop's clock, even inside `while(true){}`.
///
/// A loop timer ends an idle run; JSC's execution time limit (armed only when asked, since
/// it slows every call) asks a callback every 50 ms of script time whether the deadline passed.
@BridgeActor
final class Watchdog {
  let limit: Duration
  private(set) var fired = false
  private let group: JSContextGroupRef

  /// The deadline and the clock, for JSC's callback (which has no context pointer to carry them).
  nonisolated(unsafe) static var deadline = LoopInstant(nanoseconds: 0)
  nonisolated(unsafe) static var clock: any LoopClock = MonotonicClock()

  init(runtime: Runtime, limit: Duration) {
    self.limit = limit
    group = runtime.js.group
    Watchdog.clock = runtime.loop.clock
    Watchdog.deadline = runtime.loop.clock.now() + limit
    JSContextGroupSetExecutionTimeLimit(group, 0.05, watchdogCallback, nil)
    _ = runtime.loop.addTimer(delay: limit, interval: nil, keepsAlive: false) { [unowned runtime] in
      runtime.watchdog?.fired = true
      runtime.emitOutput(2, runtime.watchdog?.message ?? "")
      runtime.requestExit(ExitStatus.timedOut)
    }
  }

  /// The line printed when it ends the run.
  var message: String { "nbridge: stopped after --timeout \(limit.inSeconds.formattedSeconds)s\n" }

  /// Marks the watchdog as the reason the script stopped.
  func noteTermination() { fired = true }

  func disarm() { JSContextGroupClearExecutionTimeLimit(group) }
}

/// Asked by JSC after each 50 ms of script time; JSC does not re-arm the limit by itself, so
/// a callback that lets the script go on arms it again.
private let watchdogCallback: JSShouldTerminateCallback = { ctx, _ in
  let expired = Watchdog.clock.now() >= Watchdog.deadline
  if expired {
    BridgeActor.assumeIsolated { Runtime.current?.watchdog?.noteTermination() }
  } else if let ctx {
    JSContextGroupSetExecutionTimeLimit(JSContextGetGroup(ctx), 0.05, watchdogCallback, nil)
  }
  return expired
}
