import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

@testable import NBridgeApp

@Suite struct LaunchRecordTests {
  let day: Int64 = 86_400_000
  let start: Int64 = 1_714_555_800_123

  @Test func countsLaunchesAndKeepsTheFirstDate() throws {
    let dir = try TemporaryDirectory()
    let first = try LaunchRecord.recordLaunch(in: dir.path, now: start, warn: { Issue.record("warned: \($0)") })
    let second = try LaunchRecord.recordLaunch(in: dir.path, now: start + 3 * day, warn: { _ in })
    let third = try LaunchRecord.recordLaunch(in: dir.path, now: start + 6 * day, warn: { _ in })
    #expect(first.launchCount == 1)
    #expect(second.launchCount == 2)
    #expect(third.launchCount == 3)
    #expect(third.firstLaunch == start)
    #expect(third.deviceId == first.deviceId)
    #expect(RandomID.isUUID(first.deviceId))
    let stored = try String(contentsOfFile: dir.file("app.json"), encoding: .utf8)
    #expect(stored.contains(#""firstLaunchDate":"2024-05-01T09:30:00.123Z""#))
  }

  @Test func aDamagedRecordIsReplacedWithAWarning() throws {
    let dir = try TemporaryDirectory()
    try dir.write("app.json", "{not json")
    var warnings: [String] = []
    let record = try LaunchRecord.recordLaunch(in: dir.path, now: start, warn: { warnings.append($0) })
    #expect(record.launchCount == 1)
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("app.json") == true)
  }

  @Test func launchesStartedTogetherAreAllCounted() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.path
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<20 {
        group.addTask { _ = try LaunchRecord.recordLaunch(in: path, now: 0, warn: { _ in }) }
      }
      try await group.waitForAll()
    }
    let last = try LaunchRecord.recordLaunch(in: path, now: 0, warn: { _ in })
    #expect(last.launchCount == 21)
  }

  @Test func anUnwritableDataDirIsUnavailable() throws {
    let error = #expect(throws: (any Error).self) {
      try LaunchRecord.recordLaunch(in: "/proc/nbridge-no-such-dir", now: 0, warn: { _ in })
    }
    #expect("\(error!)".contains("/proc/nbridge-no-such-dir"))
  }

  @Test func daysSinceFirstLaunchAreWholeDaysRoundedDown() {
    let manifest = AppManifest(id: "com.example.app", name: "Example", version: "1.2", build: "7")
    let record = LaunchRecord(launchCount: 10, firstLaunch: start, deviceId: RandomID.uuid())
    let justBefore = AppInfo(manifest: manifest, record: record, now: start + 5 * day - 1)
    let fiveDays = AppInfo(manifest: manifest, record: record, now: start + 5 * day)
    #expect(justBefore.daysSinceFirstLaunch == 4)
    #expect(fiveDays.daysSinceFirstLaunch == 5)
    #expect(fiveDays.firstLaunchDate == "2024-05-01T09:30:00.123Z")
    #expect(fiveDays.id == "com.example.app" && fiveDays.version == "1.2" && fiveDays.build == "7")
  }
}
