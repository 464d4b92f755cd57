import Testing

@testable import NBridgeNotification

/// A repeating schedule keeps the rhythm it started with, however much it missed.
struct RhythmTests {
  @Test func aFutureStartIsItsOwnNextOccurrence() {
    #expect(nextOccurrence(start: 1000, every: 100, after: 500) == 1000)
  }

  @Test func aStartJustReachedMovesOneInterval() {
    #expect(nextOccurrence(start: 1000, every: 100, after: 1000) == 1100)
  }

  @Test func manyMissedOccurrencesLandOnTheRhythm() {
    #expect(nextOccurrence(start: 1000, every: 100, after: 1999) == 2000)
    #expect(nextOccurrence(start: 1000, every: 100, after: 2000) == 2100)
    #expect(nextOccurrence(start: 1000, every: 60_000, after: 1000 + 86_400_000 + 1) == 1000 + 86_460_000)
  }
}
