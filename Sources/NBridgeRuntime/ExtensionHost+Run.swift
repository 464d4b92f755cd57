import NBridgePlugin

/// What an extension may do to the run itself (`nbridge test`'s framework drives one): end it,
/// move the app as the session would, report an error as uncaught, and answer with a Promise.
extension ExtensionHost {
  /// The app's lifecycle (its state, whether it is suspended).
  package var lifecycle: Lifecycle { runtime.lifecycle }

  /// Moves the app to `state` now: its listeners hear of it in this turn (`Lifecycle.move(to:)`
  /// waits for the next one).
  package func moveApp(to state: AppState) { runtime.deliverMove(to: state) }

  /// Has the run's loop poll `fd` on every turn and call `body` when it is readable (a signal
  /// pipe): unlike `loop.watch`, no id to cancel, and nothing allocated per turn.
  package func pollAlways(_ fd: Int32, _ body: @escaping @BridgeActor () -> Void) {
    runtime.loop.alwaysPolled.append((fd, body))
  }

  /// Ctrl-Z: moves the app to background, and stops the process (SIGSTOP) once the app is
  /// suspended, that is once no background task is open.
  package func stopProcessWhenSuspended() {
    runtime.stopsWhenSuspended = true
    if lifecycle.state == .background { runtime.suspendIfIdle() } else { runtime.deliverMove(to: .background) }
  }

  /// The process went on (SIGCONT): no stop is pending any more, and the app moves to `state`.
  package func continueProcess(as state: AppState) {
    runtime.stopsWhenSuspended = false
    runtime.deliverMove(to: state)
  }

  /// Ends the run with `code` at the next turn of the loop (the first request wins).
  package func exit(_ code: Int32) { runtime.requestExit(code) }

  /// Reports `value` as an uncaught exception: the global `error` event, then, unless a listener
  /// prevents it, the error printed and the run ended with status 1.
  package func reportUncaught(_ value: ScriptValue) { runtime.reportUncaught(value.ref) }

  /// A Promise the extension settles later; nil when JavaScriptCore could not make one.
  package func promise() -> ExtensionPromise? { ExtensionPromise(runtime: runtime) }
}
