import Glibc

/// The time a run's loop reads: timers, `--timeout`, the lifecycle's background budget and
/// `performance.now()` all go by it. `MonotonicClock` is the real one; NBridgeTesting's
/// `ManualClock` stands still until a test moves it.
public protocol LoopClock: Sendable {
  /// The time now.
  func now() -> LoopInstant
  /// Whether time passes by itself. A clock whose time does not is moved by its owner
  /// (`Runtime.advanceClock`); the loop then never sleeps waiting for a timer, which would never
  /// come due: it waits for work, descriptors and GLib only.
  var passesByItself: Bool { get }
}

/// `CLOCK_MONOTONIC`: the default clock of a run.
public struct MonotonicClock: LoopClock {
  /// The real clock.
  public init() {}

  /// The time now, from `clock_gettime(CLOCK_MONOTONIC)`.
  @inline(__always)
  public func now() -> LoopInstant {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return LoopInstant(nanoseconds: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
  }

  /// True: the monotonic clock passes by itself.
  public var passesByItself: Bool { true }
}
