import ArgumentParser
import Glibc
import NBridgeRuntime

/// The `nbridge` command: run an app, test it, list or type its plugins.
struct NBridgeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "nbridge",
    abstract: "Run a hybrid app's JavaScript on Linux with native Swift plugins.",
    version: NBridgeVersion.current,
    subcommands: [Run.self, App.self, Test.self, Plugins.self, Types.self])

  /// Parses and runs, mapping usage errors to exit status 2 (ArgumentParser's own is 64).
  static func mainWithUsageStatus() -> Never {
    do {
      var command = try parseAsRoot()
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
