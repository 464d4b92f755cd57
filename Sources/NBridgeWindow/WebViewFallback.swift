import Glibc
import NBridgePlugin
import NBridgeRuntime

/// A web process that dies before the first page loads is the WebKitGTK users' most reported
/// failure (a blank window on some GPU stacks with the DMA-BUF renderer). nbridge keeps the
/// default renderer and, only then, starts itself again once with the fallback renderer.
enum WebViewFallback {
  static let marker = "NBRIDGE_APP_FALLBACK"

  /// Replaces the process with the same command and `WEBKIT_DISABLE_DMABUF_RENDERER=1`, once.
  @BridgeActor
  static func relaunch(because reason: String, runtime: Runtime) {
    if getenv(marker) != nil || getenv("WEBKIT_DISABLE_DMABUF_RENDERER") != nil {
      runtime.report(2, "nbridge app: \(reason), also with the fallback renderer; giving up")
      return runtime.exitPage(ExitStatus.uncaught)
    }
    runtime.report(2, "nbridge app: \(reason); starting again with WEBKIT_DISABLE_DMABUF_RENDERER=1")
    setenv(marker, "1", 1)
    setenv("WEBKIT_DISABLE_DMABUF_RENDERER", "1", 1)
    let arguments = CommandLine.arguments.map { strdup($0) } + [nil]
    execv("/proc/self/exe", arguments)
    runtime.report(2, "nbridge app: could not start again: \(String(cString: strerror(errno)))")
    runtime.exitPage(ExitStatus.uncaught)
  }
}
