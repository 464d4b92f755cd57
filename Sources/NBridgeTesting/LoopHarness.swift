import NBridgePlugin
import Synchronization

/// Runs `@BridgeActor` Swift code on a live runtime loop, for tests of plugin logic
/// that needs the loop (posted work, timers, tasks isolated to `BridgeActor`) without
/// going through JavaScript.
///
/// ```swift
/// let count = try await LoopHarness.run { try await MyEngine().doWork() }
/// ```
/// Runs share `JSHarness`'s one-loop-per-process lock, so they never race another harness run.
public enum LoopHarness {
  /// Runs `body` inside an action on the loop of a fresh runtime and returns what it
  /// returned, or rethrows what it threw.
  public static func run<T: Sendable>(_ body: @escaping @BridgeActor @Sendable () async throws -> T) async throws -> T {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let token = LoopBodyPlugin.register { @BridgeActor in
      let result: Result<T, any Error>
      do { result = .success(try await body()) } catch { result = .failure(error) }
      outcome.withLock { $0 = result }
    }
    _ = try await JSHarness.evaluate(
      "await nbridge.loopHarness.run({ token: \(token) });", plugins: [LoopBodyPlugin.self])
    guard let result = outcome.withLock({ $0 }) else {
      throw JSHarness.ScriptError(code: nil, name: "HarnessError", message: "the loop body did not run")
    }
    return try result.get()
  }
}

/// Runs a registered body in its `run` action (service `loopHarness`).
@BridgeActor
final class LoopBodyPlugin: Plugin {
  nonisolated static let definition = PluginDefinition<LoopBodyPlugin>(
    service: "loopHarness", summary: "Runs a LoopHarness body on the loop.",
    actions: [
      Action("run", options: .fields(["token": .integer])) { (_, options: Options, _) in
        let body = LoopBodyPlugin.bodies.withLock { $0.values.removeValue(forKey: options.token) }
        await body?()
        return JSONValue.null
      }
    ])

  struct Options: Decodable { let token: Int }

  typealias Body = @BridgeActor @Sendable () async -> Void
  nonisolated static let bodies = Mutex<(last: Int, values: [Int: Body])>((0, [:]))

  nonisolated static func register(_ body: @escaping Body) -> Int {
    bodies.withLock {
      $0.last += 1
      $0.values[$0.last] = body
      return $0.last
    }
  }

  init(context: PluginContext) {}
}
