import Glibc
import NBridgePlugin
import NBridgeSystem

/// What a run does with the signals `RunSignals` turns into bytes on its loop.
/// SIGINT/SIGTERM/SIGHUP: the first stops the run cleanly at the next turn of the loop (exit
/// 130/143/129, plugins flushed), and decides the run's status even when that turn never comes
/// (the last turn was busy and left nothing to wait for: see `Runtime.finish`); a second one, for
/// a script stuck in a loop, ends the process at once.
/// SIGTSTP (Ctrl-Z): the app moves to background and the process stops itself (SIGSTOP) once
/// it is suspended, that is once no background task is open; a second Ctrl-Z stops it at once.
/// SIGCONT: active when the process is its terminal's foreground group (or has no terminal),
/// else background (`bg`).
enum SignalHandling {
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
  static var receivedStatus: Int32? { stopping(RunSignals.received) }

  /// Installs the handlers and has `loop` poll their pipe; throws when the pipe cannot be made
  /// (no descriptor left), and then installs nothing.
  @BridgeActor
  static func install(loop: EventLoop, runtime: Runtime) throws(SystemError) {
    let signals = try RunSignals.install()
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
      RunSignals.continued()
      runtime.stopsWhenSuspended = false
      runtime.deliverMove(to: RunSignals.isTerminalForeground() ? .active : .background)
    default:
      break
    }
  }
}
