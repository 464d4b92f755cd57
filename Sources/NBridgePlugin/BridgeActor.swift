/// The global actor of the runtime's loop thread: JS, the runtime and every plugin
/// run isolated to it, so an action that does not suspend never changes thread.
@globalActor
public actor BridgeActor {
  /// The shared instance.
  public static let shared = BridgeActor()

  /// Jobs of `@BridgeActor` code run on the loop thread.
  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    LoopExecutor.shared.asUnownedSerialExecutor()
  }

  /// Runs `operation` as `@BridgeActor` code, trapping when not on the loop thread;
  /// for C callbacks, which Swift cannot see are on the loop.
  public static func assumeIsolated<T>(_ operation: @BridgeActor () throws -> T) rethrows -> T {
    LoopExecutor.shared.checkIsolated()
    return try withoutActuallyEscaping(operation) { fn in
      try unsafeBitCast(fn, to: (() throws -> T).self)()
    }
  }
}
