import ArgumentParser
import NBridgeBuiltins
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge run FILE [-- ARGS...]`.
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run a script until no work is left.",
      discussion: "Arguments after -- are the script's nbridge.args.")

    @Argument(help: "The entry script, such as www/index.js.")
    var file: String

    @OptionGroup var app: AppOptions

    @Option(help: "Stop the script after this many seconds, even in an endless loop (exit 124).")
    var timeout: Double?

    @Argument(parsing: .postTerminator, help: "Arguments for the script (after --).")
    var scriptArguments: [String] = []

    func validate() throws {
      if let timeout, !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
      if !fileIsReadable(file) { throw ValidationError("cannot read \(file): no such file") }
    }

    func run() throws {
      let manifest: AppManifest
      do {
        manifest = try AppSetup.manifest(forEntry: file)
      } catch {
        throw ValidationError(error.description)
      }
      let registry = PluginRegistry(Builtins.plugins)
      let known = Set(registry.plugins.map(\.permission))
      for name in app.allowed + app.denied where !known.contains(name) {
        throw ValidationError("unknown service \"\(name)\" in --allow/--deny (known: \(known.sorted().joined(separator: ", ")))")
      }
      var configuration = RuntimeConfiguration(
        plugins: registry, manifest: manifest,
        dataDirectory: AppSetup.dataDirectory(flag: app.dataDir, manifest: manifest),
        sharedDirectory: AppSetup.sharedDirectory)
      configuration.arguments = scriptArguments
      configuration.allow = app.allowed
      configuration.deny = app.denied
      configuration.timeout = timeout
      configuration.environment = ProcessEnvironment.current
      configuration.handlesSignals = true
      throw ExitCode(Runtime.run(configuration, file: file))
    }
  }
}
