import Glibc
import NBridgePlugin

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
