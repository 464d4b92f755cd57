/// The next time a repeating schedule that started at `start` is due after `now`, keeping its
/// rhythm: `start + k * every` for the smallest `k` that lands after `now`.
func nextOccurrence(start: Int64, every: Int64, after now: Int64) -> Int64 {
  guard start <= now else { return start }
  return start + ((now - start) / every + 1) * every
}
