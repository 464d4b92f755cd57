import Foundation
import NBridgeTesting
import Testing

/// Ctrl-Z and `fg` on a real `nbridge run`: SIGTSTP moves the app to background and stops the
/// process once no task is open; SIGCONT brings it back.
@Suite(.serialized) struct SignalLifecycleTests {
  static let script = """
    nbridge.app.addListener('stateChange', (s) => console.log('state ' + s.state));
    nbridge.app.addListener('pause', () => console.log('pause'));
    nbridge.app.addListener('resume', () => console.log('resume'));
    let n = 0;
    setInterval(() => console.log('tick ' + ++n), 50);
    """

  /// The process's state letter (R, S, T, ...) from /proc.
  static func processState(_ pid: Int32) -> String? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(close, offsetBy: 2)...].split(separator: " ").first.map(String.init)
  }

  /// Whether, by the kernel's account, the process is in its terminal's foreground group (or has no terminal).
  static func ownsTerminal(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
    // state ppid pgrp session tty_nr tpgid
    guard fields.count > 5, let tty = Int(fields[4]), let pgrp = Int(fields[2]), let tpgid = Int(fields[5]) else {
      return true
    }
    return tty == 0 || tpgid == pgrp
  }

  static func waitFor(_ timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition() { return true }
      usleep(10_000)
    }
    return condition()
  }

  @Test func ctrlZPausesAndStopsTheProcessAndSIGCONTResumesIt() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write("app.js", Self.script)
    let child = try NBridgeTest.start(["run", script], environment: ["NBRIDGE_DATA_DIR": dir.file("data")])
    defer { child.stop() }
    #expect(child.waitForOutput("tick 2"))
    child.signal(SIGTSTP)
    #expect(child.waitForOutput("pause"))
    #expect(Self.waitFor { Self.processState(child.pid) == "T" }, "state \(Self.processState(child.pid) ?? "?")")
    let whileStopped = child.stdout
    #expect(whileStopped.hasSuffix("state background\npause\n"), "\(whileStopped)")
    // A stopped process (state T) runs nothing and so cannot write: waiting here would check
    // nothing. What it did before stopping is checked above, what it does once continued below.
    kill(child.pid, SIGCONT)
    let expected = Self.ownsTerminal(child.pid) ? "resume\nstate active\n" : "state background\n"
    #expect(child.waitForOutput(whileStopped + expected), "\(child.stdout)")
    if expected.hasPrefix("resume") {
      let ticks = child.stdout.split(separator: "\n").filter { $0.hasPrefix("tick") }.count
      #expect(Self.waitFor { child.stdout.split(separator: "\n").filter { $0.hasPrefix("tick") }.count > ticks })
    }
  }

  @Test func anOpenTaskKeepsItRunningUntilASecondCtrlZ() throws {
    let dir = try TemporaryDirectory()
    let script = try dir.write(
      "app.js", Self.script + "\nnbridge.background.beginTask({ name: 'upload' }).then(() => console.log('task open'));"
    )
    let child = try NBridgeTest.start(["run", script], environment: ["NBRIDGE_DATA_DIR": dir.file("data")])
    defer { child.stop() }
    #expect(child.waitForOutput("task open"))
    #expect(child.waitForOutput("tick 2"))
    child.signal(SIGTSTP)
    #expect(child.waitForOutput("pause"))
    // The task holds the app awake: its interval goes on in background.
    let after = child.stdout.components(separatedBy: "pause\n").last ?? ""
    #expect(Self.waitFor { (child.stdout.components(separatedBy: "pause\n").last ?? "").contains("tick") }, "\(after)")
    #expect(Self.processState(child.pid) != "T")
    child.signal(SIGTSTP)
    #expect(Self.waitFor { Self.processState(child.pid) == "T" }, "state \(Self.processState(child.pid) ?? "?")")
    kill(child.pid, SIGCONT)
    child.stop()
  }

  @Test func anOpenTaskKeepsTheRunAliveAndTheBudgetEndsIt() throws {
    let dir = try TemporaryDirectory()
    try dir.write("app/nbridge.json", #"{"id": "com.example.tasks", "background": {"taskBudget": 1}}"#)
    let script = try dir.write(
      "app/index.js",
      """
      nbridge.background.addListener('expiration', (e) => console.log('expiration ' + e.id + ' ' + e.name));
      nbridge.background.beginTask({ name: 'upload' }).then(({ id }) => console.log('task ' + id));
      setTimeout(() => console.log('last timer'), 100);
      """)
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(atPath: runtimeDir, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtimeDir)
    let environment: [String: String?] = ["NBRIDGE_DATA_DIR": dir.file("data"), "XDG_RUNTIME_DIR": runtimeDir]
    let child = try NBridgeTest.start(["run", script], environment: environment)
    defer { child.stop() }
    #expect(child.waitForOutput("task 1\nlast timer\n"), "\(child.stdout)")
    // With its last timer run, only the open task keeps the run alive: its loop (which serves
    // the control socket) still answers `nbridge ps` after that.
    let listed = try NBridgeTest.command(["ps"], environment: environment).stdout
    let row = listed.split(separator: "\n").first { $0.hasPrefix("com.example.tasks ") }
    let pid = row?.split(separator: " ").dropFirst().first
    #expect(pid == "\(child.pid)", "an open task keeps the run alive: \(listed)")
    child.signal(SIGTSTP)
    // Half the 1 s budget: expiration; at 1 s the task is ended, the app suspends and stops.
    #expect(child.waitForOutput("expiration 1 upload"))
    #expect(Self.waitFor { Self.processState(child.pid) == "T" })
    #expect(child.stderr == "nbridge: background: task 1 (upload) ended: the background budget of 1s is spent\n")
    // Continued with nothing left to wait for, the run ends.
    kill(child.pid, SIGCONT)
    #expect(child.wait(timeout: 10) == 0)
  }
}
