import Foundation
import NBridgePlugin
import NBridgeTesting
import Testing

/// `app` as a user runs it: launches counted across real `nbridge run` processes.
@Suite(.serialized) struct AppProcessTests {
  @Test func threeRunsCountThreeLaunchesWithOneFirstDateAndDeviceId() throws {
    let dir = try TemporaryDirectory()
    try dir.write(
      "app/nbridge.json", #"{"id": "com.example.counter", "name": "Counter", "version": "2.1", "build": "42"}"#)
    let script = try dir.write(
      "app/index.js",
      """
      (async () => {
        const info = await nbridge.app.appInfo();
        const device = await nbridge.app.deviceInfo();
        console.log(JSON.stringify({ ...info, deviceId: device.deviceId }));
      })();
      """)
    let env: [String: String?] = ["NBRIDGE_DATA_DIR": dir.file("data")]
    var runs: [[String: Any]] = []
    for _ in 0..<3 {
      let result = try NBridgeTest.command(["run", script], environment: env)
      #expect(result.status == 0, "\(result.stderr)")
      let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
      runs.append(try #require(object))
    }
    #expect(runs.map { $0["launchCount"] as? Int } == [1, 2, 3])
    #expect(Set(runs.map { $0["firstLaunchDate"] as? String }).count == 1)
    #expect(Set(runs.map { $0["deviceId"] as? String }).count == 1)
    #expect(runs.allSatisfy { $0["daysSinceFirstLaunch"] as? Int == 0 })
    #expect(runs[0]["id"] as? String == "com.example.counter")
    #expect(runs[0]["name"] as? String == "Counter")
    #expect(runs[0]["version"] as? String == "2.1")
    #expect(runs[0]["build"] as? String == "42")
  }

  @Test func aRunCountsEvenWhenTheScriptNeverCallsApp() throws {
    let dir = try TemporaryDirectory()
    let quiet = try dir.write("quiet.js", "console.log('hi');")
    let ask = try dir.write("ask.js", "nbridge.app.appInfo().then((i) => console.log(i.launchCount));")
    let env: [String: String?] = ["NBRIDGE_DATA_DIR": dir.file("data")]
    #expect(try NBridgeTest.command(["run", quiet], environment: env).status == 0)
    #expect(try NBridgeTest.command(["run", quiet], environment: env).status == 0)
    #expect(try NBridgeTest.command(["run", ask], environment: env).stdout == "3\n")
  }

  @Test func exitEndsTheRunWithItsCode() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write(
      "exit.js", "setTimeout(() => console.log('too late'), 5000); nbridge.app.exit({ code: 7 });")
    let result = try NBridgeTest.command(["run", script], environment: ["NBRIDGE_DATA_DIR": dir.file("data")])
    #expect(result.status == 7)
    #expect(!result.stdout.contains("too late"))
  }
}
