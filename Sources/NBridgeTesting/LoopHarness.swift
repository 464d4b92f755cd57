import NBridgePlugin

/// Runs `@BridgeActor` Swift code on a live runtime loop, for tests of plugin logic
/// that needs the loop (posted work, timers, tasks isolated to `BridgeActor`) without
/// going through JavaScript.
///
/// ```swift
/// let count = try await LoopHarness.run { try await MyEngine().doWork() }
/// ```
/// The loop is a `withRuntime` scope's on the real clock, with no plugins.
public enum LoopHarness {
  /// Runs `body` on the loop of a fresh runtime and returns what it returned, or rethrows what it threw.
  public static func run<T: Sendable>(_ body: @escaping @BridgeActor @Sendable () async throws -> T) async throws -> T {
    try await withRuntime(plugins: [], realTime: true) { _ in try await body() }
  }
}
