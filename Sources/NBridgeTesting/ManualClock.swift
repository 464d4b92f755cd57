import NBridgePlugin
import NBridgeRuntime
import Synchronization

/// A loop clock that stands still until the test moves it (swift-nio's `EmbeddedEventLoop` time):
/// `withRuntime` gives its runtime one, so timers fire when the test says and never by waiting.
///
/// ```swift
/// try await NBridgeTest.withRuntime { rt in
///   _ = try await rt.evaluate("setTimeout(() => console.log('late'), 20)")
///   await rt.clock.advance(by: .milliseconds(20))  // 'late' is printed before this returns
/// }
/// ```
public final class ManualClock: LoopClock {
  private let nanoseconds: Atomic<UInt64>

  /// A clock that reads `start` until moved.
  public init(start: LoopInstant = LoopInstant(nanoseconds: 1_000_000_000)) {
    nanoseconds = Atomic(start.nanoseconds)
  }

  /// The time the test last moved it to.
  public func now() -> LoopInstant { LoopInstant(nanoseconds: nanoseconds.load(ordering: .acquiring)) }

  /// It does not: the loop never sleeps waiting for one of its timers.
  public var passesByItself: Bool { false }

  /// Moves time on by `duration` on the loop of the runtime that reads this clock: each timer due
  /// on the way fires at its own deadline, in order (so an interval fires once per period), what it
  /// queued on the loop runs, and microtasks drain after each; then it returns. A negative
  /// `duration` does nothing. With no runtime running, only the time moves.
  @BridgeActor
  public func advance(by duration: Duration) async {
    let target = now() + max(duration, .zero)
    if let runtime = Runtime.running(withClock: self) {
      await runtime.advanceClock(to: target) { self.set($0) }
    } else {
      set(target)
    }
  }

  private func set(_ instant: LoopInstant) {
    nanoseconds.store(instant.nanoseconds, ordering: .releasing)
  }
}
