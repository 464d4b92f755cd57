import NBridgePlugin
import NBridgeRuntime

extension Runtime {
  /// Runs an app whose page `open` shows (returning an exit status when it cannot), on the
  /// calling thread, until the window closes or the app exits; returns the exit status.
  nonisolated static func runPage(
    _ configuration: RuntimeConfiguration, entry: String, open: @escaping @BridgeActor (Runtime) -> Int32?
  ) -> Int32 {
    runOnThisThread(configuration) { runtime in
      if let status = runtime.prepare(entry: entry, installsGlobals: false) { return status }
      if let status = open(runtime) { runtime.requestExit(code: status) }
      return runtime.finish()
    }
  }
}
