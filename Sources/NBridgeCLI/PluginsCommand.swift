import ArgumentParser
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge plugins [--json]`.
  struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List every registered service with its actions, events and permission.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Print Markdown tables (docs/plugins/README.md embeds them).")
    var markdown = false

    func validate() throws {
      if json && markdown { throw ValidationError("--json and --markdown cannot be used together") }
    }

    func run() throws {
      let registry = PluginRegistry(NBridgeCommand.plugins)
      if json {
        print(PluginCatalog.json(registry).prettyJSON)
      } else if markdown {
        print(PluginCatalog.markdown(registry), terminator: "")
      } else {
        print(PluginCatalog.text(registry), terminator: "")
      }
    }
  }

  /// `nbridge types`.
  struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print TypeScript declarations (.d.ts) for the nbridge object.")

    func run() throws {
      print(TypeScriptDeclarations.generate(PluginRegistry(NBridgeCommand.plugins)), terminator: "")
    }
  }
}
