import NBridgePlugin
import NBridgeRuntime

/// A run a caller keeps across steps (`NBridgeTest.withRuntime`): the runtime is set up as for a
/// script, then the loop turns, running what the caller posts to it, until the caller's scope
/// ends. What the caller evaluates comes back through an extension of its own (`ScopedEvaluations`).
extension Runtime {
  /// Runs a scoped runtime on the calling thread, which becomes the loop thread: `started` gets
  /// the runtime once it is set up (nil when setting up failed), then the loop turns until `ended()`
  /// holds; plugins are stopped and the exit status returned. When the run ends early (an uncaught
  /// error, `app.exit`), JS stops running and `endedEarly` is called, but what the caller posts
  /// still runs, so it can see why.
  nonisolated static func runScope(
    _ configuration: RuntimeConfiguration, entry: String, started: @escaping @BridgeActor (Runtime?) -> Void,
    endedEarly: @escaping @BridgeActor () -> Void, ended: @escaping @BridgeActor () -> Bool
  ) -> Int32 {
    runOnThisThread(configuration) { runtime in
      runtime.entryPath = entry
      if let status = runtime.prepare(entry: entry) {
        started(nil)
        return status
      }
      started(runtime)
      runtime.loop.run(whileAlive: false) { ended() || runtime.exitCode != nil }
      if !ended() {
        endedEarly()
        runtime.loop.runJobs { ended() }
      }
      runtime.loop.stopRequested = true
      return runtime.finish()
    }
  }

  /// The runtime running now, if its loop reads `clock` (the very object).
  static func running(withClock clock: AnyObject) -> Runtime? {
    guard let runtime = current, (runtime.loop.clock as AnyObject) === clock else { return nil }
    return runtime
  }

  /// Moves the run's clock, which must not pass by itself, to `target` (see `EventLoop.advance`).
  func advanceClock(to target: LoopInstant, setting set: @BridgeActor (LoopInstant) -> Void) async {
    precondition(!loop.clock.passesByItself, "nbridge: advanceClock on a run whose clock passes by itself")
    await loop.advance(to: target, setting: set)
  }
}
