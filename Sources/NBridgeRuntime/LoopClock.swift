import Glibc
import NBridgePlugin

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

  /// `clock_gettime(CLOCK_MONOTONIC)`.
  @inline(__always)
  public func now() -> LoopInstant {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return LoopInstant(nanoseconds: UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec))
  }

  /// It does.
  public var passesByItself: Bool { true }
}

/// The instant a run began, on both clocks: `performance.timeOrigin` is its wall-clock time in
/// milliseconds, `performance.now()` counts from its instant on the loop's clock.
struct TimeOrigin {
  let instant: LoopInstant
  let wallMilliseconds: Double

  init(clock: any LoopClock) {
    var wall = timespec()
    clock_gettime(CLOCK_REALTIME, &wall)
    instant = clock.now()
    wallMilliseconds = Double(wall.tv_sec) * 1_000 + Double(wall.tv_nsec / 1_000) / 1_000
  }
}
