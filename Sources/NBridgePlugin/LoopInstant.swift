/// A point in time on a run's loop clock: nanoseconds from that clock's own zero (boot, for the
/// real `CLOCK_MONOTONIC` clock; wherever a test's manual clock started).
///
/// The runtime keeps time in this one shape: instants are `LoopInstant`s, spans between them
/// Swift `Duration`s. JS milliseconds and the manifest's seconds are converted where they enter.
public struct LoopInstant: Comparable, Hashable, Sendable {
  /// Nanoseconds from the clock's zero.
  public var nanoseconds: UInt64

  /// The instant `nanoseconds` after the clock's zero.
  public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: LoopInstant, rhs: LoopInstant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

  /// The instant `duration` later (earlier for a negative one), held at the ends of the clock's range.
  public static func + (instant: LoopInstant, duration: Duration) -> LoopInstant {
    if duration < .zero {
      let back = (Duration.zero - duration).wholeNanoseconds
      return LoopInstant(nanoseconds: instant.nanoseconds > back ? instant.nanoseconds - back : 0)
    }
    let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(duration.wholeNanoseconds)
    return LoopInstant(nanoseconds: overflow ? .max : sum)
  }

  /// The span from `earlier` to `later` (negative when `later` comes first).
  public static func - (later: LoopInstant, earlier: LoopInstant) -> Duration {
    later >= earlier
      ? .nanoseconds(Int64(clamping: later.nanoseconds - earlier.nanoseconds))
      : .zero - .nanoseconds(Int64(clamping: earlier.nanoseconds - later.nanoseconds))
  }
}

extension Duration {
  /// Whole nanoseconds: 0 for a negative span, `UInt64.max` for one too long to count.
  package var wholeNanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    guard seconds >= 0, attoseconds >= 0 else { return 0 }
    guard seconds < 18_446_744_073 else { return .max }
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }

  /// Seconds as a `Double`, for messages and the manifest's units.
  package var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// `seconds` from the outside (a plugin, the manifest, `--timeout`): NaN and negatives as zero,
  /// anything over about 31 years held there.
  package init(clampingSeconds seconds: Double) {
    self = .nanoseconds(Int64(seconds.isNaN ? 0 : min(max(seconds, 0), 1e9) * 1e9))
  }

  /// `milliseconds` from JS (a timer's delay): NaN and negatives as zero, held at about 31 years.
  package init(clampingMilliseconds milliseconds: Double) {
    self = .nanoseconds(Int64(milliseconds.isNaN ? 0 : min(max(milliseconds, 0), 1e12) * 1e6))
  }
}

extension Double {
  /// Seconds as a message prints them: `1`, `0.5`.
  package var formattedSeconds: String {
    self == rounded() ? String(Int(self)) : String(self)
  }
}
