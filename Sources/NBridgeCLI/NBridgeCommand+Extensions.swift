import NBridgeCompat
import NBridgeConsole
import NBridgeLifecycle
import NBridgeLog
import NBridgeModules
import NBridgeRuntime
import NBridgeWeb

extension NBridgeCommand {
  /// The runtime's extensions, in order, as every run of the CLI gets them (Deno's worker lists
  /// its extensions the same way): `console` (first: the others read its formatting), the
  /// lifecycle (moves, suspension), the web APIs, `nbridge.log`, forwarding to `destination` (`--log-to`) when given, ES modules with
  /// `require()`, and the seed systems' page globals. The control socket's extension
  /// (`ControlExtension`) is added by the socket's claim (`claimControlSocket`), when this run owns the socket.
  static func extensions(logTo destination: LogDestination? = nil) -> [RuntimeExtension] {
    [
      ConsoleExtension.make(), LifecycleExtension.make(), WebExtension.make(), LogExtension.make(destination: destination),
      ModulesExtension.make(), CompatExtension.make(),
    ]
  }
}
