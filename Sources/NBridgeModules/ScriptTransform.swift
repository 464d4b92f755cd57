import NBridgeModuleSyntax
import NBridgeRuntime

/// What the module loader does to a user's script before the core runs it (the extension's
/// `transformSource` hook): the entry's types erased when it is TypeScript, and every script's
/// `import(...)` routed to the loader, relative to the script's own file.
enum ScriptTransform {
  /// `source` named `url` as it runs at `stage`, and the columns the rewrite inserted.
  static func transform(_ stage: SourceStage, _ source: String, url: String) throws(ModuleSyntaxError) -> (String, [[Int]]) {
    switch stage {
    case .entry:
      return (TypeStripper.isTypeScript(url) ? try TypeStripper.strip(source) : source, [])
    case .script:
      let call = "$nbridge$import(" + jsonQuoted(url) + ","
      return ScriptSyntax.rewriteDynamicImports(source, replacement: call) ?? (source, [])
    }
  }
}
