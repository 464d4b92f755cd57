import Glibc
import NBridgePlugin

/// SIGINT/SIGTERM/SIGHUP: the first stops the run cleanly at the next turn of the loop (exit
/// 130/143/129, plugins flushed), and decides the run's status even when that turn never comes
/// (the last turn was busy and left nothing to wait for: see `Runtime.finish`); a second one, for
/// a script stuck in a loop, ends the process at once.
/// SIGTSTP (Ctrl-Z): the app moves to background and the process stops itself (SIGSTOP) once
/// it is suspended, that is once no background task is open; a second Ctrl-Z stops it at once.
/// SIGCONT: active when the process is its terminal's foreground group (or has no terminal),
/// else background (`bg`).
enum SignalHandling {
  nonisolated(unsafe) static var pipeWriter: Int32 = -1
  nonisolated(unsafe) static var pipeReader: Int32 = -1
  nonisolated(unsafe) static var received: Int32 = 0
  /// The signals that stop a run, each with the status it ends with.
  static let stopping = [SIGINT: ExitStatus.interrupted, SIGTERM: ExitStatus.terminated, SIGHUP: ExitStatus.hungUp]

  /// The status of the stopping signal received so far, nil while there is none.
  static var receivedStatus: Int32? { stopping[received] }
  /// Set by the first Ctrl-Z, cleared by SIGCONT: a second Ctrl-Z meanwhile stops at once.
  nonisolated(unsafe) static var stopPending: Int32 = 0

  @BridgeActor
  static func install(loop: EventLoop, runtime: Runtime) {
    if pipeReader < 0 {
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { return }
      for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
      pipeReader = fds[0]
      pipeWriter = fds[1]
    }
    // A parent may start us with these blocked (threaded test runners do); a CLI must hear them.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for sig in [SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT] { sigaddset(&unblock, sig) }
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    signal(SIGINT, onSignal)
    signal(SIGTERM, onSignal)
    signal(SIGHUP, onSignal)
    signal(SIGTSTP, onSignal)
    signal(SIGCONT, onSignal)
    signal(SIGPIPE, SIG_IGN)
    loop.alwaysPolled.append(
      (
        pipeReader,
        { [unowned runtime] in
          var bytes: [UInt8] = Array(repeating: 0, count: 16)
          while true {
            let count = read(pipeReader, &bytes, bytes.count)
            guard count > 0 else { break }
            for sig in bytes.prefix(count) { handle(Int32(sig), runtime: runtime) }
          }
        }
      ))
  }

  @BridgeActor
  private static func handle(_ sig: Int32, runtime: Runtime) {
    switch sig {
    case SIGINT, SIGTERM, SIGHUP:
      runtime.requestExit(stopping[sig] ?? ExitStatus.terminated)
    case SIGTSTP:
      runtime.stopsWhenSuspended = true
      if runtime.lifecycle.state == .background {
        runtime.suspendIfIdle()
      } else {
        runtime.deliverMove(to: .background)
      }
    case SIGCONT:
      stopPending = 0
      runtime.stopsWhenSuspended = false
      runtime.deliverMove(to: isTerminalForeground() ? .active : .background)
    default:
      break
    }
  }

  /// Stops the process (SIGSTOP cannot be caught); it goes on at SIGCONT.
  static func stopProcess() {
    stopPending = 0
    kill(getpid(), SIGSTOP)
  }

  /// Whether the process group owns its controlling terminal's foreground, or there is no terminal.
  static func isTerminalForeground() -> Bool {
    let tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC)
    guard tty >= 0 else { return true }
    defer { close(tty) }
    let foreground = tcgetpgrp(tty)
    return foreground < 0 || foreground == getpgrp()
  }
}

private let onSignal: @convention(c) (Int32) -> Void = { sig in
  if sig == SIGINT || sig == SIGTERM || sig == SIGHUP {
    if SignalHandling.received != 0 { _exit(128 + sig) }
    SignalHandling.received = sig
  }
  if sig == SIGTSTP {
    // A second Ctrl-Z before the first stopped the process: stop now.
    if SignalHandling.stopPending != 0 {
      SignalHandling.stopPending = 0
      kill(getpid(), SIGSTOP)
      return
    }
    SignalHandling.stopPending = 1
  }
  var byte: UInt8 = UInt8(truncatingIfNeeded: sig)
  _ = write(SignalHandling.pipeWriter, &byte, 1)
}
