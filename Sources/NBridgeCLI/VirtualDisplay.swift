import Glibc
import NBridgeRuntime
import NBridgeSystem

/// An X server of nbridge's own (`Xvfb`) for `nbridge test --page` where there is no display:
/// on a display number with neither socket nor lock file, ready once that display's socket is
/// there and its lock file names the server's PID, and stopped by that PID when the tests end,
/// fail, or are interrupted.
struct VirtualDisplay {
  let pid: pid_t
  /// The `DISPLAY` value, such as `:3`.
  let display: String

  /// The server being started or running, for the signal handler (0: none).
  nonisolated(unsafe) static var running: pid_t = 0

  /// Starts `Xvfb` on a free display number and waits (at most 10 s) until it accepts
  /// connections. A number another server took meanwhile (ours exits: "server already active")
  /// moves on to the next, five times at most.
  static func start() throws(SystemError) -> VirtualDisplay {
    // Until a run's own handling takes over: an interruption stops the server before we end.
    // Handled in the handler itself, not through a pipe: no loop polls one yet.
    Signals.install([SIGINT, SIGTERM, SIGHUP], handler: stopOnSignal)
    // A crash (WebKit's g_error traps, a Swift trap) stops it too, then ends as it would have.
    for sig in [SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE] { signal(sig, stopOnCrash) }
    var number = 100 + Int(getpid() % 800)
    for _ in 0..<5 {
      while exists("/tmp/.X11-unix/X\(number)") || exists("/tmp/.X\(number)-lock") { number += 1 }
      // -noreset: a server resets when its last client leaves; the next file's window is refused then.
      let pid = try Spawn.start(
        ["Xvfb", ":\(number)", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
        environment: ProcessEnvironment.current, output: .discard, newSession: true)
      running = pid
      let server = VirtualDisplay(pid: pid, display: ":\(number)")
      switch waitUntilReady(number, pid: pid) {
      case true?: return server
      case false?: server.stop()
      case nil: break  // it ended (reaped)
      }
      number += 1
    }
    throw SystemError(operation: "start Xvfb (no display ready within 10 s)", code: ETIMEDOUT)
  }

  private static func exists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
  }

  /// Whether display `number`'s socket is there and its lock file names `pid` (a server another
  /// program started on that number meanwhile has a socket too), within 10 s; nil at once when
  /// the server ended (it is reaped).
  private static func waitUntilReady(_ number: Int, pid: pid_t) -> Bool? {
    for _ in 0..<1000 {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        running = 0
        return nil
      }
      let holder = PageFolder.contents(of: "/tmp/.X\(number)-lock").map { String(decoding: $0, as: UTF8.self) }
      if exists("/tmp/.X11-unix/X\(number)"), let holder, pid_t(holder.filter { !$0.isWhitespace }) == pid {
        return true
      }
      usleep(10_000)
    }
    return false
  }

  /// Stops the server: SIGTERM, then SIGKILL after 2 s, and waits for it.
  func stop() {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<200 {
      if waitpid(pid, &status, WNOHANG) != 0 {
        Self.running = 0
        return
      }
      usleep(10_000)
    }
    kill(pid, SIGKILL)
    _ = waitpid(pid, &status, 0)
    Self.running = 0
  }
}

/// A signal before a run handles its own (while the server starts, or between files): stop
/// the server and end with the signal's status.
private let stopOnSignal: @convention(c) (Int32) -> Void = { sig in
  let pid = VirtualDisplay.running
  if pid > 0 {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
  }
  _exit(128 + sig)
}

/// A crash: stop the server (without waiting), then let the signal end the process as it would have.
private let stopOnCrash: @convention(c) (Int32) -> Void = { sig in
  let pid = VirtualDisplay.running
  if pid > 0 { kill(pid, SIGTERM) }
  signal(sig, SIG_DFL)
  raise(sig)
}
