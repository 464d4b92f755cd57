import Glibc

/// Monotonic time in nanoseconds.
func monotonicNanos() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The instant a run began, on both clocks: `performance.timeOrigin` is its wall-clock time in
/// milliseconds, `performance.now()` counts from its monotonic time.
struct TimeOrigin {
  let monotonic: UInt64
  let wallMilliseconds: Double

  init() {
    var wall = timespec()
    clock_gettime(CLOCK_REALTIME, &wall)
    monotonic = monotonicNanos()
    wallMilliseconds = Double(wall.tv_sec) * 1_000 + Double(wall.tv_nsec / 1_000) / 1_000
  }
}
