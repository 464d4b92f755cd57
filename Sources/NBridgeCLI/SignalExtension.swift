import Glibc
import NBridgePlugin
import NBridgeLifecycle
import NBridgeRuntime
import NBridgeSystem

/// What a run of the CLI does with the signals `RunSignals` turns into bytes on its loop, as an
/// extension of the runtime (`RunRequest` adds it where it sets `handlesSignals`).
/// SIGINT/SIGTERM/SIGHUP: the first stops the run cleanly at the next turn of the loop (exit
/// 130/143/129, plugins flushed), and decides the run's status even when that turn never comes
/// (the last turn was busy and left nothing to wait for: the runtime asks
/// `RunSignals.stoppedStatus` at its end); a second one, for a script stuck in a loop, ends the
/// process at once.
/// SIGTSTP (Ctrl-Z): the app moves to background and the process stops itself (SIGSTOP) once
/// it is suspended, that is once no background task is open; a second Ctrl-Z stops it at once.
/// SIGCONT: active when the process is its terminal's foreground group (or has no terminal),
/// else background (`bg`).
enum SignalExtension {
  /// The extension: its `start` hook installs the handlers and has the run's loop poll their pipe.
  static func make() -> RuntimeExtension {
    var hooks = RuntimeExtension.Hooks<NoState>()
    hooks.start = { _, host in
      do throws(SystemError) {
        let signals = try RunSignals.install()
        host.pollAlways(signals.descriptor) { signals.drain { sig in handle(Int32(sig), host) } }
      } catch {
        host.write(2, "nbridge: cannot handle signals: \(error)\n")
        host.exit(ExitStatus.uncaught)
      }
    }
    return RuntimeExtension(name: "signals", state: { _ in NoState() }, hooks: hooks)
  }

  /// The extension keeps nothing for a run.
  final class NoState {}

  @BridgeActor
  private static func handle(_ sig: Int32, _ host: ExtensionHost) {
    switch sig {
    case SIGINT, SIGTERM, SIGHUP:
      host.exit(RunSignals.stoppedStatus ?? ExitStatus.terminated)
    case SIGTSTP:
      host.stopProcessWhenSuspended()
    case SIGCONT:
      RunSignals.continued()
      host.continueProcess(as: RunSignals.isTerminalForeground() ? .active : .background)
    default:
      break
    }
  }
}
