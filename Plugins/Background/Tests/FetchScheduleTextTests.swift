import Glibc
import NBridgePlugin
import NBridgeSystem
import Testing

@testable import NBridgeBackground

@Suite struct FetchScheduleTextTests {
  @Test func intervalsAreRaisedToTheFloor() throws {
    #expect(try FetchInterval(option: "never", floor: 600) == .never)
    #expect(try FetchInterval(option: "minimum", floor: 600) == .seconds(600))
    #expect(try FetchInterval(option: 60, floor: 600) == .seconds(600))
    #expect(try FetchInterval(option: 3600, floor: 600) == .seconds(3600))
    #expect(try FetchInterval(option: 2, floor: 1) == .seconds(2))
    #expect(FetchInterval.floor(environment: ["NBRIDGE_FETCH_MINIMUM": "1"]) == 1)
    #expect(FetchInterval.floor(environment: ["NBRIDGE_FETCH_MINIMUM": "soon"]) == 600)
    for bad: JSONValue in ["sometimes", 0, -5, .null, true] {
      #expect(throws: BridgeError.self) { try FetchInterval(option: bad, floor: 600) }
    }
  }

  /// An id that is a path or holds a line break never names a unit or a schedule file (issue 31, finding 12).
  @Test func aWakeUpIsRefusedForAnIDThatCannotNameAFile() throws {
    let folder = "/tmp/nbridge-waker-\(UInt32.random(in: 0...UInt32.max))"
    for id in ["../../x", "x\nExecStart=/bin/true", ".x"] {
      let waker = FetchWaker(
        appID: id,
        environment: [FetchWaker.entryVariable: "/srv/app/index.js", "NBRIDGE_SCHEDULER": "daemon", "XDG_DATA_HOME": folder])
      #expect(throws: BridgeError.self) { try waker.schedule(dueAt: 1, interval: 600) }
      #expect(throws: BridgeError.self) { try waker.schedule(dueAt: nil, interval: nil) }
    }
    #expect(access(folder, F_OK) != 0, "nothing was written")
  }

  @Test func theCalendarTimeIsTheNextWholeSecondInUTC() {
    // 2026-11-23T19:30:05.001Z
    #expect(SystemdFetchTimer.calendar(milliseconds: 1_795_462_205_001) == "2026-11-23 19:30:06 UTC")
    #expect(SystemdFetchTimer.calendar(milliseconds: 1_795_462_205_000) == "2026-11-23 19:30:05 UTC")
  }

  @Test func unitArgumentsAreQuotedOnlyWhenTheyNeedIt() {
    #expect(SystemdFetchUnits.quoted("/usr/bin/nbridge") == "/usr/bin/nbridge")
    #expect(SystemdFetchUnits.quoted("/home/a b/app.js") == "\"/home/a b/app.js\"")
    #expect(SystemdFetchUnits.quoted("100%$x\"") == "\"100%%$$x\\\"\"")
  }

  /// Beside a service shipped by `nbridge bundle`, a run writes only what it adds to it: nothing
  /// for the same command, its variables, or (another command) an `ExecStart=` that replaces it.
  @Test func aPackagedServiceGetsADropInOnlyForWhatTheRunAdds() {
    let arguments = ["/usr/lib/dev.example/example", "run", "--fetch", "/usr/lib/dev.example/app/index.js"]
    let packaged = SystemdFetchUnits.service(appID: "dev.example", arguments: arguments, environment: [])
    #expect(SystemdFetchUnits.dropIn(packaged: packaged, appID: "dev.example", arguments: arguments, environment: []) == nil)
    #expect(
      SystemdFetchUnits.dropIn(
        packaged: packaged, appID: "dev.example", arguments: arguments, environment: [("XDG_DATA_HOME", "/a b")])
        == "[Service]\nEnvironment=\"XDG_DATA_HOME=/a b\"\n")
    #expect(
      SystemdFetchUnits.dropIn(
        packaged: packaged, appID: "dev.example", arguments: arguments + ["--data-dir", "/d"], environment: [])
        == "[Service]\nExecStart=\nExecStart=\(arguments.joined(separator: " ")) --data-dir /d\n")
  }

  @Test func theServiceRunsTheFetchWithTheRunsFolders() {
    let command = FetchWakeCommand(
      executable: "/opt/nbridge", entry: "/srv/my app/index.js", dataDirectory: "/data",
      environment: ["XDG_DATA_HOME": "/x", "HOME": "/home/u", "NBRIDGE_FETCH_MINIMUM": ""])
    let timer = SystemdFetchTimer(appID: "dev.example", environment: ["XDG_CONFIG_HOME": "/cfg"])
    #expect(timer.timerPath == "/cfg/systemd/user/nbridge-fetch-dev.example.timer")
    #expect(
      timer.serviceText(command) == """
        [Unit]
        Description=nbridge background fetch for dev.example

        [Service]
        Type=oneshot
        Environment=XDG_DATA_HOME=/x
        ExecStart=/opt/nbridge run --fetch --data-dir /data "/srv/my app/index.js"

        """)
  }
}
