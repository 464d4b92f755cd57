#if canImport(Glibc)
  import Glibc
#endif

/// The signals a run reacts to, as bytes on one `WakeSignal` (the self-pipe) that the run's
/// loop polls: SIGINT, SIGTERM and SIGHUP ask it to stop, SIGTSTP (Ctrl-Z) to suspend, SIGCONT
/// to go on. The handler itself decides only what cannot wait for the loop: a second stopping
/// signal (a script stuck in a loop) ends the process at once, and so does a second Ctrl-Z
/// before the first stopped it. What a run does with each is the runtime's (`SignalHandling`).
package enum RunSignals {
  /// The self-pipe, made by the first `install` and kept for later runs of the process.
  nonisolated(unsafe) private static var pipe: WakeSignal?
  /// Its writing end, as the handler reads it (a plain integer: nothing to retain there).
  nonisolated(unsafe) fileprivate static var pipeWriter: Int32 = -1
  /// The first stopping signal received (SIGINT, SIGTERM or SIGHUP); 0 while there is none.
  nonisolated(unsafe) package fileprivate(set) static var received: Int32 = 0
  /// Set by the first Ctrl-Z, cleared by SIGCONT: a second Ctrl-Z meanwhile stops at once.
  nonisolated(unsafe) fileprivate static var stopPending: Int32 = 0

  /// Sets the handlers and ignores SIGPIPE; the pipe whose bytes are the numbers of the signals
  /// received. Throws when the pipe cannot be made (no descriptor left), and then sets nothing.
  package static func install() throws(SystemError) -> WakeSignal {
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
    return signals
  }

  /// The process went on (SIGCONT): the next Ctrl-Z waits for the app to suspend again.
  package static func continued() { stopPending = 0 }

  /// Stops the process (SIGSTOP cannot be caught); it goes on at SIGCONT.
  package static func stopProcess() {
    stopPending = 0
    kill(getpid(), SIGSTOP)
  }

  /// Whether the process group owns its controlling terminal's foreground, or there is no terminal.
  package static func isTerminalForeground() -> Bool {
    guard let tty = try? POSIX.open("/dev/tty", O_RDONLY | O_NOCTTY) else { return true }
    defer { close(tty) }
    let foreground = tcgetpgrp(tty)
    return foreground < 0 || foreground == getpgrp()
  }
}

private let onSignal: @convention(c) (Int32) -> Void = { sig in
  if sig == SIGINT || sig == SIGTERM || sig == SIGHUP {
    if RunSignals.received != 0 { _exit(128 + sig) }
    RunSignals.received = sig
  }
  if sig == SIGTSTP {
    // A second Ctrl-Z before the first stopped the process: stop now.
    if RunSignals.stopPending != 0 {
      RunSignals.stopPending = 0
      kill(getpid(), SIGSTOP)
      return
    }
    RunSignals.stopPending = 1
  }
  Signals.post(sig, to: RunSignals.pipeWriter)
}
