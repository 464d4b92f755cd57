import NBridgePlugin

/// What the runtime asks of a window showing the app's page (`nbridge app`): the page is the
/// run's JS side, so events, lifecycle moves and suspension reach it as script (NBridgeWindow's
/// page glue defines the functions these scripts call).
@BridgeActor
package protocol PageHost: AnyObject {
  /// Evaluates `script` in the page's top frame; its result is not needed.
  func evaluateInPage(_ script: String)
}

extension Runtime {
  /// Runs an app whose page `open` shows (returning an exit status when it cannot), on the
  /// calling thread, until the window closes or the app exits; returns the exit status.
  package nonisolated static func runPage(
    _ configuration: RuntimeConfiguration, entry: String, open: @escaping @BridgeActor (Runtime) -> Int32?
  ) -> Int32 {
    runOnThisThread(configuration) { runtime in
      if let status = runtime.prepare(entry: entry, installsGlobals: false) { return status }
      if let status = open(runtime) { runtime.requestExit(status) }
      return runtime.finish()
    }
  }
}
