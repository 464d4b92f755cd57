import Foundation
import NBridgePlugin
import NBridgeRuntime
import Synchronization

/// Runs in the test's own process (`TestMode.inProcess`).
extension NBridgeTest {
  /// Runs `source` as a whole script named `name` on a thread of its own, on the real clock,
  /// until nothing keeps it alive; returns its exit status and output.
  static func runInProcess(
    _ source: String, name: String, plugins: [any Plugin.Type], configure: @Sendable (inout RuntimeConfiguration) -> Void
  ) async throws -> Outcome {
    let scratch = try TemporaryDirectory(prefix: "nbridge-harness")
    var configuration = RuntimeConfiguration.forTesting(plugins: plugins, in: scratch)
    configure(&configuration)
    let captured = Mutex<(String, String)>(("", ""))
    configuration.output = { fd, text in
      captured.withLock { if fd == 2 { $0.1 += text } else { $0.0 += text } }
    }
    let final = configuration
    let status: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: Runtime.run(final, source: source, name: name))
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    _ = scratch
    let (out, err) = captured.withLock { $0 }
    return (status, out, err)
  }
}

extension NBridgeTest {
  /// Runs `@BridgeActor` code on the live loop of a fresh runtime (no plugins, the real clock)
  /// and returns what it returned, or rethrows what it threw: plugin logic that needs the loop
  /// (posted work, timers, tasks isolated to `BridgeActor`) without going through JavaScript.
  ///
  /// ```swift
  /// let count = try await NBridgeTest.onLoop { try await MyEngine().doWork() }
  /// ```
  public static func onLoop<T: Sendable>(_ body: @escaping @BridgeActor @Sendable () async throws -> T) async throws -> T {
    try await withRuntime(plugins: [], realTime: true) { _ in try await body() }
  }
}
