import Glibc
import NBridgePlugin
import NBridgeSystem

/// SIGINT/SIGTERM/SIGHUP: the first stops the run cleanly at the next turn of the loop (exit
/// 130/143/129, plugins flushed), and decides the run's status even when that turn never comes
/// (the last turn was busy and left nothing to wait for: see `Runtime.finish`); a second one, for
/// a script stuck in a loop, ends the process at once.
/// SIGTSTP (Ctrl-Z): the app moves to background and the process stops itself (SIGSTOP) once
/// it is suspended, that is once no background task is open; a second Ctrl-Z stops it at once.
/// SIGCONT: active when the process is its terminal's foreground group (or has no terminal),
/// else background (`bg`).
enum SignalHandling {
  /// The self-pipe the handler writes each signal's number to; made by the first `install`.
  nonisolated(unsafe) static var pipe: WakeSignal?
  /// Its writing end, as the handler reads it (a plain integer: nothing to retain there).
  nonisolated(unsafe) static var pipeWriter: Int32 = -1
  nonisolated(unsafe) static var received: Int32 = 0
  /// The status a run stopped by `signal` ends with; nil for a signal that does not stop it. A
  /// switch, not a dictionary: every run asks at its end, and a `[Int32: Int32]`'s first use
  /// costs a walk of the executable's protocol conformances (about 0.3 M instructions).
  static func stopping(_ signal: Int32) -> Int32? {
    switch signal {
    case SIGINT: ExitStatus.interrupted
    case SIGTERM: ExitStatus.terminated
    case SIGHUP: ExitStatus.hungUp
    default: nil
    }
  }

  /// The status of the stopping signal received so far, nil while there is none.
  static var receivedStatus: Int32? { stopping(received) }
  /// Set by the first Ctrl-Z, cleared by SIGCONT: a second Ctrl-Z meanwhile stops at once.
  nonisolated(unsafe) static var stopPending: Int32 = 0

  /// Installs the handlers and has `loop` poll their pipe; throws when the pipe cannot be made
  /// (no descriptor left), and then installs nothing.
  @BridgeActor
  static func install(loop: EventLoop, runtime: Runtime) throws(SystemError) {
    let signals: WakeSignal
    if let made = pipe {
      signals = made
    } else {
      signals = try WakeSignal()
      pipe = signals
      pipeWriter = signals.writer
    }
    Signals.install([SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT], handler: onSignal)
    Signals.ignore(SIGPIPE)
    loop.alwaysPolled.append(
      (
        signals.descriptor,
        { [unowned runtime] in
          signals.drain { sig in handle(Int32(sig), runtime: runtime) }
        }
      ))
  }

  @BridgeActor
  private static func handle(_ sig: Int32, runtime: Runtime) {
    switch sig {
    case SIGINT, SIGTERM, SIGHUP:
      runtime.requestExit(stopping(sig) ?? ExitStatus.terminated)
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
    guard let tty = try? POSIX.open("/dev/tty", O_RDONLY | O_NOCTTY) else { return true }
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
  Signals.post(sig, to: SignalHandling.pipeWriter)
}
