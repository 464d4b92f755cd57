import ArgumentParser
import NBridgeBuiltins
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge plugins [--json]`.
  struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List every registered service with its actions, events and permission.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
      let registry = PluginRegistry(Builtins.plugins)
      print(json ? PluginCatalog.json(registry).prettyJSON : PluginCatalog.text(registry), terminator: "")
      if json { print() }
    }
  }

  /// `nbridge types`.
  struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print TypeScript declarations (.d.ts) for the nbridge object.")

    func run() throws {
      print(TypeScriptDeclarations.generate(PluginRegistry(Builtins.plugins)), terminator: "")
    }
  }
}
