import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime
import Synchronization

/// The whole `nbridge` command line — `run`, `app`, `test`, `plugins`, `types` — as a library, so a
/// program with plugins of its own gets the full CLI with one call:
///
/// ```swift
/// NBridgeCommand.main(plugins: Builtins.plugins + [GreeterPlugin.self])
/// ```
public struct NBridgeCommand: ParsableCommand {
  /// The command's name, version and subcommands.
  public static let configuration = CommandConfiguration(
    commandName: "nbridge",
    abstract: "Run a hybrid app's JavaScript on Linux with native Swift plugins.",
    version: NBridgeVersion.current,
    subcommands: [
      Run.self, App.self, Test.self, Logs.self, Plugins.self, Types.self, Init.self, Ps.self, Daemon.self, Simulate.self,
      Install.self, Uninstall.self, Open.self, Bundle.self,
    ])

  /// Made by the argument parser.
  public init() {}

  /// The plugins every command of this process registers, set once by `main(plugins:)`.
  private static let registered = Mutex<[any Plugin.Type]>([])

  /// The plugins `main(plugins:)` was given.
  static var plugins: [any Plugin.Type] { registered.withLock { $0 } }

  /// Runs the `nbridge` command line with `plugins` registered, then ends the process with the
  /// command's exit status (usage errors exit 2).
  ///
  /// - Parameter plugins: every plugin the runtime offers scripts and pages, for example
  ///   `Builtins.plugins + [GreeterPlugin.self]`.
  public static func main(plugins: [any Plugin.Type]) -> Never {
    registered.withLock { $0 = plugins }
    // A bundled app's executable started without a command opens the app (BundledLaunch).
    let arguments = BundledLaunch.arguments(CommandLine.arguments) { commandNames }
    // The plain `nbridge run FILE [-- ARGS...]` starts without the argument parser when its
    // checks pass; anything else, and any problem, goes through the parser, which reports it.
    if let request = RunRequest(plainArguments: arguments), let configuration = try? request.configuration() {
      request.run(configuration)
    }
    mainWithUsageStatus(Array(arguments.dropFirst()))
  }

  /// The first arguments that are nbridge's own: its commands, `help`, `-h`, `--help`, `--version`.
  static var commandNames: Set<String> {
    Set(
      configuration.subcommands.map { $0.configuration.commandName ?? String(describing: $0).lowercased() }
        + ["help", "-h", "--help", "--version"])
  }

  /// Parses `arguments` (the program's name left out) and runs, mapping usage errors to exit
  /// status 2 (ArgumentParser's own is 64).
  static func mainWithUsageStatus(_ arguments: [String]) -> Never {
    do {
      var command = try parseAsRoot(InspectArgument.spelledApart(arguments))
      try command.run()
      Glibc.exit(0)
    } catch let code as ExitCode {
      Glibc.exit(code.rawValue)
    } catch {
      let status = exitCode(for: error).rawValue
      let message = fullMessage(for: error)
      if status == 0 {
        print(message)
        Glibc.exit(0)
      }
      var line = String(message.split(separator: "\n").first ?? "error")
      if line.hasPrefix("Error: ") { line.removeFirst(7) }
      writeStderr("nbridge: \(line) (see 'nbridge --help')\n")
      Glibc.exit(status == ExitCode.validationFailure.rawValue ? ExitStatus.usage : status)
    }
  }
}

func writeStderr(_ text: String) {
  var text = text
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
