import Foundation
import NBridgeTesting
import Testing

/// Ctrl-Z, then `bg` or `fg`, on a real `nbridge run` that has a controlling terminal (a pty):
/// continued while its process group is not the terminal's foreground group, the app stays in
/// background (no `resume`); continued as the foreground group, it resumes.
@Suite(.serialized) struct TerminalJobLifecycleTests {
  /// A stand-in shell: a session on a new pty, led by this script, with the command in a process
  /// group of its own — the terminal's foreground group (`fg`) or not (`bg`). The command's pid
  /// goes to PIDFILE; SIGTERM kills the command and the session.
  static let shell = #"""
    import fcntl, os, signal, sys, termios
    mode, pidfile, command = sys.argv[1], sys.argv[2], sys.argv[3:]
    master, slave = os.openpty()
    leader = os.fork()
    if leader == 0:
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
        app = os.fork()
        if app == 0:
            os.setpgid(0, 0)
            os.close(master)
            os.close(slave)
            os.execvp(command[0], command)
        try:
            os.setpgid(app, app)
        except OSError:
            pass  # the command has already done it and exec'd
        if mode == 'fg':
            os.tcsetpgrp(slave, app)
        with open(pidfile + '.tmp', 'w') as f:
            f.write(str(app))
        os.rename(pidfile + '.tmp', pidfile)
        os.waitpid(app, 0)
        os._exit(0)

    def stop(*_):
        try:
            os.kill(int(open(pidfile).read()), signal.SIGKILL)
        except (OSError, ValueError):
            pass
        os.kill(leader, signal.SIGKILL)
        os.waitpid(leader, 0)
        os._exit(143)

    signal.signal(signal.SIGTERM, stop)
    os.waitpid(leader, 0)
    """#

  static let script = """
    nbridge.app.addListener('stateChange', (s) => console.log('state ' + s.state));
    nbridge.app.addListener('pause', () => console.log('pause'));
    nbridge.app.addListener('resume', () => console.log('resume'));
    let n = 0;
    setInterval(() => console.log('tick ' + ++n), 50);
    """

  /// The app's process in its stand-in terminal session, with a private runtime folder for `nbridge ps`.
  struct Job {
    let dir: TemporaryDirectory
    let session: ChildProcess
    let pid: Int32
    let environment: [String: String?]

    init(_ mode: String) throws {
      dir = try TemporaryDirectory()
      try dir.write("app/nbridge.json", #"{"id": "com.example.terminal"}"#)
      let entry = try dir.write("app/index.js", TerminalJobLifecycleTests.script)
      let shell = try dir.write("shell.py", TerminalJobLifecycleTests.shell)
      let runtimeDir = dir.file("xdg")
      try FileManager.default.createDirectory(atPath: runtimeDir, withIntermediateDirectories: true)
      try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtimeDir)
      environment = ["NBRIDGE_DATA_DIR": dir.file("data"), "XDG_RUNTIME_DIR": runtimeDir]
      session = try ChildProcess(
        "python3", [shell, mode, dir.file("pid"), NBridgeTest.executable, "run", entry], environment: environment)
      let deadline = Date().addingTimeInterval(10)
      var pid: Int32?
      while pid == nil && Date() < deadline {
        pid = (try? String(contentsOfFile: dir.file("pid"), encoding: .utf8)).flatMap { Int32($0) }
        if pid == nil { usleep(20_000) }
      }
      guard let pid else { throw ChildProcessError.notReady("no pid from the stand-in shell: \(session.stderr)") }
      self.pid = pid
    }

    var stdout: String { session.stdout }

    /// What `nbridge ps` says of the app: its line, or nil.
    func listed() throws -> String? {
      let r = try NBridgeTest.command(["ps"], environment: environment)
      return r.stdout.split(separator: "\n").first { $0.hasPrefix("com.example.terminal") }.map(String.init)
    }

    func stop() {
      kill(pid, SIGKILL)
      session.stop()
    }
  }

  static func ticks(_ text: String) -> Int { text.split(separator: "\n").filter { $0.hasPrefix("tick") }.count }

  /// Ctrl-Z: `pause`, then the process stops (state T).
  static func stopWithCtrlZ(_ job: Job) {
    #expect(job.session.waitForOutput("tick 2"), "\(job.stdout)\(job.session.stderr)")
    kill(job.pid, SIGTSTP)
    #expect(job.session.waitForOutput("state background\npause\n"), "\(job.stdout)")
    #expect(SignalLifecycleTests.waitFor { SignalLifecycleTests.processState(job.pid) == "T" })
  }

  @Test func continuedOutsideTheForegroundGroupItStaysInBackground() throws {
    let job = try Job("bg")
    defer { job.stop() }
    #expect(!SignalLifecycleTests.ownsTerminal(job.pid), "the stand-in shell left the app in the foreground")
    Self.stopWithCtrlZ(job)
    let whileStopped = job.stdout
    kill(job.pid, SIGCONT)
    #expect(SignalLifecycleTests.waitFor { SignalLifecycleTests.processState(job.pid) != "T" })
    // Running again, still in background and suspended: no resume, no state change, no ticks.
    // The 50 ms interval is due once 50 ms pass; after that, two `nbridge ps` answers (the
    // control socket is served on the app's loop) are two turns of its loop, in which an
    // interval that was not held would have ticked.
    let due = Date().addingTimeInterval(0.05)
    while Date() <= due { usleep(5_000) }
    _ = try job.listed()
    let line = try job.listed()
    #expect(line?.hasSuffix(" background") == true, "\(line ?? "not listed")")
    #expect(job.stdout == whileStopped, "\(job.stdout.dropFirst(whileStopped.count))")
    #expect(SignalLifecycleTests.processState(job.pid) != "T")
  }

  @Test func continuedAsTheForegroundGroupItResumes() throws {
    let job = try Job("fg")
    defer { job.stop() }
    #expect(SignalLifecycleTests.ownsTerminal(job.pid), "the stand-in shell did not give the app the terminal")
    Self.stopWithCtrlZ(job)
    let whileStopped = job.stdout
    kill(job.pid, SIGCONT)
    #expect(job.session.waitForOutput(whileStopped + "resume\nstate active\n"), "\(job.stdout)")
    let ticks = Self.ticks(job.stdout)
    #expect(SignalLifecycleTests.waitFor { Self.ticks(job.stdout) > ticks })
    let line = try job.listed()
    #expect(line?.hasSuffix(" active") == true, "\(line ?? "not listed")")
  }
}
