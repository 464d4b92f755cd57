import CJavaScriptCore
import NBridgePlugin

/// JavaScriptCore's limit on script time, for an extension that ends a script stuck in
/// `while (true) {}` (NBridgeWatchdog's `--timeout`). Armed only when asked: it slows every call.
extension ExtensionHost {
  /// Has JavaScriptCore ask `ends` after every `interval` seconds of script time: true ends the
  /// running script. `ends` must not run JS; it ends the run (`exit`) before answering true, so
  /// what the ended script throws is not reported.
  package func limitScriptTime(checkingEvery interval: Double, _ ends: @escaping @BridgeActor () -> Bool) {
    scriptTimeCheck = (interval, ends)
    JSContextGroupSetExecutionTimeLimit(runtime.js.group, interval, scriptTimeCallback, nil)
  }

  /// Takes the limit off.
  package func clearScriptTimeLimit() {
    JSContextGroupClearExecutionTimeLimit(runtime.js.group)
    scriptTimeCheck = nil
  }
}

/// The armed limit's interval and check (JSC's callback carries no context of ours); one run at a time.
@BridgeActor private var scriptTimeCheck: (interval: Double, ends: @BridgeActor () -> Bool)?

/// Asked by JSC after each interval of script time; JSC does not re-arm the limit by itself, so
/// a callback that lets the script go on arms it again.
private let scriptTimeCallback: JSShouldTerminateCallback = { ctx, _ in
  let (ends, interval) = BridgeActor.assumeIsolated { () -> (Bool, Double) in
    guard let check = scriptTimeCheck else { return (false, 0) }
    return (check.ends(), check.interval)
  }
  if !ends, interval > 0, let ctx { JSContextGroupSetExecutionTimeLimit(JSContextGetGroup(ctx), interval, scriptTimeCallback, nil) }
  return ends
}
