import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

extension NBridgeCommand {
  /// `nbridge init [--template page|headless|vite] [--plugin NAME] [--nbridge URL|PATH] [--force] DIR`.
  struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Make a new app in DIR, or with --plugin a Swift package: a plugin and its own nbridge CLI.",
      discussion: """
        An app: www/index.html and its page.js, www/index.js (the headless entry beside the page), \
        www/nbridge.json (its id made from DIR's name), Tests/js and a README; --template headless makes \
        no page, --template vite adds package.json and vite.config.js and a manifest whose "dev" names \
        Vite's dev server. \
        With --plugin NAME, also a Swift package that depends on nbridge \(NBridgeVersion.current) or later: \
        Sources/<NAME>Plugin (one action, one event), Sources/<name>/main.swift (the whole CLI with the \
        plugin in it), a Swift test and a Makefile ('make run', 'make test'). DIR must be empty or new.
        """)

    @Argument(help: "The folder to create (it must be empty or not exist yet).")
    var directory: String

    @Option(help: ArgumentHelp("Make a plugin package whose plugin is called NAME (such as Greeter).", valueName: "name"))
    var plugin: String?

    @Option(
      help: ArgumentHelp(
        "Where the plugin package gets nbridge: a git URL (used with from: \(NBridgeVersion.current)) or a local folder.",
        valueName: "url-or-path"))
    var nbridge: String = NBridgeVersion.repository

    @Option(help: "What to make: page (index.html calling a plugin, its headless entry beside it), headless, or vite (a page Vite serves while developing).")
    var template: AppTemplate = .page

    @Flag(help: "Write into DIR even when it is not empty (files of the same name are replaced).")
    var force = false

    var scaffold: Scaffold {
      get throws {
        let folder = absolutePath(directory)
        guard let plugin else { return Scaffold.app(in: folder, template: template) }
        guard let names = PluginNames(plugin) else {
          throw ValidationError(
            "--plugin must be a Swift type name of letters and digits that starts with a letter, such as Greeter (got \"\(plugin)\")"
          )
        }
        return Scaffold.plugin(names, in: folder, nbridge: NBridgeDependency(nbridge))
      }
    }

    func validate() throws {
      _ = try scaffold
      if !force, let entries = Directory.names(absolutePath(directory)), !entries.isEmpty {
        throw ValidationError("\(directory) is not empty (\(entries.count) entries); use --force to write into it anyway")
      }
    }

    func run() throws {
      let scaffold = try scaffold
      do {
        try scaffold.write()
      } catch {
        writeStderr("nbridge: \(error)\n")
        throw ExitCode(1)
      }
      print(scaffold.nextSteps(for: directory), terminator: "")
    }
  }
}
