import Testing

@testable import NBridgeBackground

@Suite struct FetchBackoffTests {
  @Test func newDataKeepsTheInterval() {
    var backoff = FetchBackoff()
    backoff.record(.newData, late: false)
    #expect(backoff.delay(interval: 600) == 600)
  }

  @Test func eachFetchWithoutNewDataDoublesTheDelayUpToEightIntervals() {
    var backoff = FetchBackoff()
    var delays: [Double] = []
    for _ in 0..<5 {
      backoff.record(.noData, late: false)
      delays.append(backoff.delay(interval: 600))
    }
    #expect(delays == [1200, 2400, 4800, 4800, 4800])
    backoff.record(.newData, late: false)
    #expect(backoff.delay(interval: 600) == 600)
  }

  @Test func aLateFetchCountsTwice() {
    var backoff = FetchBackoff()
    backoff.record(.failed, late: true)
    #expect(backoff.delay(interval: 600) == 2400)
    backoff.record(.failed, late: true)
    #expect(backoff.level == FetchBackoff.cap)
  }
}
