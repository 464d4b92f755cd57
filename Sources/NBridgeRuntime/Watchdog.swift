import CJavaScriptCore
import Glibc
import NBridgePlugin
import Synchronization

/// `--timeout`: ends the run after a wall-clock limit, even inside `while(true){}`.
///
/// A loop timer ends an idle run; JSC's execution time limit (armed only when asked, since
/// it slows every call) asks a callback every 50 ms of script time whether the deadline passed.
@BridgeActor
final class Watchdog {
  let seconds: Double
  private(set) var fired = false
  private let group: JSContextGroupRef

  nonisolated(unsafe) static var deadline: UInt64 = 0

  init(runtime: Runtime, seconds: Double) {
    self.seconds = seconds
    group = runtime.js.group
    Watchdog.deadline = monotonicNanos() + UInt64(seconds * 1e9)
    JSContextGroupSetExecutionTimeLimit(group, 0.05, watchdogCallback, nil)
    _ = runtime.loop.addTimer(delay: UInt64(seconds * 1e9), interval: nil, keepsAlive: false) { [unowned runtime] in
      runtime.watchdog?.fired = true
      runtime.emitOutput(2, "nbridge: stopped after --timeout \(seconds.formattedSeconds)s\n")
      runtime.requestExit(ExitStatus.timedOut)
    }
  }

  /// Marks the watchdog as the reason the script stopped.
  func noteTermination() { fired = true }

  func disarm() { JSContextGroupClearExecutionTimeLimit(group) }
}

/// Asked by JSC after each 50 ms of script time; JSC does not re-arm the limit by itself, so
/// a callback that lets the script go on arms it again.
private let watchdogCallback: JSShouldTerminateCallback = { ctx, _ in
  let expired = monotonicNanos() >= Watchdog.deadline
  if expired {
    BridgeActor.assumeIsolated { Runtime.current?.watchdog?.noteTermination() }
  } else if let ctx {
    JSContextGroupSetExecutionTimeLimit(JSContextGetGroup(ctx), 0.05, watchdogCallback, nil)
  }
  return expired
}
