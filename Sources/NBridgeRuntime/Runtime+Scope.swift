import CJavaScriptCore
import NBridgePlugin
import NBridgeSystem

/// A run a caller keeps across steps (NBridgeTesting's `withRuntime`): the runtime is set up as
/// for a script, then the loop turns, running what the caller posts to it, until the caller's
/// scope ends; nothing comes back through a side channel.
extension Runtime {
  /// Runs a scoped runtime on the calling thread, which becomes the loop thread: `started` gets
  /// the runtime once it is set up (nil when setting up failed), then the loop turns until `ended()`
  /// holds; plugins are stopped and the exit status returned. When the run ends early (an uncaught
  /// error, `app.exit`), JS stops running but what the caller posts still runs, so it can see why.
  package nonisolated static func runScope(
    _ configuration: RuntimeConfiguration, entry: String, started: @escaping @BridgeActor (Runtime?) -> Void,
    ended: @escaping @BridgeActor () -> Bool
  ) -> Int32 {
    runOnThisThread(configuration) { runtime in
      if let status = runtime.prepare(entry: entry) {
        started(nil)
        return status
      }
      runtime.entryDirectory = dirOf(entry)
      runtime.entryPath = entry
      started(runtime)
      runtime.loop.run(whileAlive: false) { ended() || runtime.exitCode != nil }
      if !ended() {
        runtime.failScopedEvaluations()
        runtime.loop.runJobs { ended() }
      }
      runtime.loop.stopRequested = true
      return runtime.finish()
    }
  }

  /// The runtime running now, if its loop reads `clock` (the very object).
  package static func running(withClock clock: AnyObject) -> Runtime? {
    guard let runtime = current, (runtime.loop.clock as AnyObject) === clock else { return nil }
    return runtime
  }

  /// The exit status the run asked for (uncaught error, `app.exit`, `--timeout`), or nil while it goes on.
  package var exitStatus: Int32? { exitCode }

  /// Evaluates `body` as the body of an async function; `done` gets `{"value": …}` with what it
  /// resolved (as `JSON.stringify` sees it) or `{"error": {name, message, code}}` with what it
  /// rejected with, once it settles (or at once when the run has ended).
  package func evaluateScoped(_ body: String, url: String, _ done: @escaping @BridgeActor (JSONValue) -> Void) {
    guard exitCode == nil else { return done(Self.scopeEndedError(exitCode ?? 0)) }
    let id = nextScopedEvaluation
    nextScopedEvaluation += 1
    let source = """
      (function (settle) { (async () => {
      \(body)
      })().then((value) => {
        let text;
        try { text = JSON.stringify({ value: value === undefined ? null : value }); }
        catch (e) { text = JSON.stringify({ error: { name: 'TypeError', message: 'the result is not JSON: ' + e.message, code: null } }); }
        settle(\(id), text);
      }, (e) => settle(\(id), JSON.stringify({ error: {
        name: String(e && e.name || 'Error'), message: String(e && e.message || e), code: e && e.code !== undefined ? String(e.code) : null } })));
      })
      """
    scopedEvaluations[id] = done
    do {
      let (script, shifts) = runnableScript(source, url: url)
      registerColumnShifts(url, shifts)
      sources[url] = script
      let function = try js.evaluate(script, url: url)
      guard let function = js.object(function) else { return }
      _ = try js.call(function, [scopedSettle()])
    } catch {
      // Only a syntax error gets here: the async function catches what its body throws.
      scopedEvaluations[id] = nil
      let thrown = js.object(error.value)
      let name = thrown.map { js.toString(js.property($0, "name")) } ?? "Error"
      let message = thrown.map { js.toString(js.property($0, "message")) } ?? js.toString(error.value)
      done(["error": ["name": .string(name), "message": .string(message), "code": .null]])
    }
    afterCallback()
  }

  /// Moves the run's clock, which must not pass by itself, to `target` (see `EventLoop.advance`).
  package func advanceClock(to target: LoopInstant, setting set: @BridgeActor (LoopInstant) -> Void) async {
    precondition(!loop.clock.passesByItself, "nbridge: advanceClock on a run whose clock passes by itself")
    await loop.advance(to: target, setting: set)
  }

  /// The native function `settle(id, jsonText)` of scoped evaluations.
  private func scopedSettle() -> JSObjectRef {
    if let made = scopedSettleFunction, let function = js.object(made.ref) { return function }
    let function = js.function("settle", scopedSettleCallback)
    scopedSettleFunction = ScriptValue(function, in: js)
    return function
  }

  fileprivate func settleScoped(id: Int, text: String) {
    guard let done = scopedEvaluations.removeValue(forKey: id) else { return }
    done((try? JSONValue(parsing: text)) ?? ["error": ["name": "Error", "message": "unreadable result", "code": .null]])
  }

  /// Fails every evaluation still waiting: the run ended before it settled.
  private func failScopedEvaluations() {
    let waiting = scopedEvaluations.sorted { $0.key < $1.key }
    scopedEvaluations.removeAll()
    for (_, done) in waiting { done(Self.scopeEndedError(exitCode ?? 0)) }
  }

  private static func scopeEndedError(_ status: Int32) -> JSONValue {
    ["error": ["name": "RunEnded", "message": .string("the run ended with status \(status)"), "code": .null]]
  }
}

private let scopedSettleCallback: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let id = JSValueToNumber(runtime.js.ref, args[0], nil)
    runtime.settleScoped(id: Int(saturating: id), text: runtime.js.toString(args[1]))
    return nil
  }
}
