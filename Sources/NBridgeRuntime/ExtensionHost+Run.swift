import NBridgePlugin

/// What an extension may do to the run itself (`nbridge test`'s framework drives one): end it,
/// report an error as uncaught, and answer with a Promise.
extension ExtensionHost {
  /// Has the run's loop poll `fd` on every turn and call `body` when it is readable (a signal
  /// pipe): unlike `loop.watch`, no id to cancel, and nothing allocated per turn.
  package func pollAlways(_ fd: Int32, _ body: @escaping @BridgeActor () -> Void) {
    runtime.loop.alwaysPolled.append((fd, body))
  }

  /// Ends the run with `code` at the next turn of the loop (the first request wins).
  package func exit(_ code: Int32) { runtime.requestExit(code) }

  /// Reports `value` as an uncaught exception: the global `error` event, then, unless a listener
  /// prevents it, the error printed and the run ended with status 1.
  package func reportUncaught(_ value: ScriptValue) { runtime.reportUncaught(value.ref) }

  /// A Promise the extension settles later; nil when JavaScriptCore could not make one.
  package func promise() -> ExtensionPromise? { ExtensionPromise(runtime: runtime) }
}
