#if canImport(Glibc)
  import Glibc
#endif

/// The signals a run reacts to, as bytes on one `WakeSignal` (the self-pipe) that the run's
/// loop polls: SIGINT, SIGTERM and SIGHUP ask it to stop, SIGTSTP (Ctrl-Z) to suspend, SIGCONT
/// to go on. The handler itself decides only what cannot wait for the loop: a second stopping
/// signal (a script stuck in a loop) ends the process at once, and so does a second Ctrl-Z
/// before the first stopped it. What a run does with each is the CLI's `SignalExtension`.
package enum RunSignals {
  /// The first stopping signal received (SIGINT, SIGTERM or SIGHUP); 0 while there is none.
  nonisolated(unsafe) package fileprivate(set) static var received: Int32 = 0
  /// Set by the first Ctrl-Z, cleared by SIGCONT: a second Ctrl-Z meanwhile stops at once.
  nonisolated(unsafe) fileprivate static var stopPending: Int32 = 0

  /// Sets the handlers (`Signals.install`) and ignores SIGPIPE; the pipe whose bytes are the
  /// numbers of the signals received. Throws when the pipe cannot be made (no descriptor left),
  /// and then sets nothing.
  package static func install() throws(SystemError) -> WakeSignal {
    let signals = try Signals.install([SIGINT, SIGTERM, SIGHUP, SIGTSTP, SIGCONT], screen: screenRunSignal)
    Signals.ignore(SIGPIPE)
    return signals
  }

  /// The status a run stopped by the signal received ends with (128 + its number: 130 for
  /// SIGINT, 143 for SIGTERM, 129 for SIGHUP); nil while none came.
  package static var stoppedStatus: Int32? { received == 0 ? nil : 128 + received }

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

/// What the handler decides before the loop hears of a signal: a second stopping signal ends
/// the process at once, and a second Ctrl-Z before the first stopped it stops it now.
private let screenRunSignal: @convention(c) (Int32) -> Bool = { sig in
  if sig == SIGINT || sig == SIGTERM || sig == SIGHUP {
    if RunSignals.received != 0 { _exit(128 + sig) }
    RunSignals.received = sig
  }
  if sig == SIGTSTP {
    if RunSignals.stopPending != 0 {
      RunSignals.stopPending = 0
      kill(getpid(), SIGSTOP)
      return false
    }
    RunSignals.stopPending = 1
  }
  return true
}
