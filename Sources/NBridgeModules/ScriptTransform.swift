import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeRuntime

/// What the module loader does to a user's script before the core runs it (the extension's
/// `transformSource` hook): the entry's types erased when it is TypeScript, every script's
/// `import(...)` routed to the loader, relative to the script's own file, and an entry script
/// that uses top-level `await` run as the body of an async function.
@BridgeActor
enum ScriptTransform {
  /// `source` named `url` as it runs at `stage`, and the columns the rewrite inserted.
  static func transform(
    _ stage: SourceStage, _ source: String, url: String, _ host: ExtensionHost
  ) throws(ModuleSyntaxError) -> (String, [[Int]]) {
    switch stage {
    case .entry:
      return (TypeStripper.isTypeScript(url) ? try TypeStripper.strip(source) : source, [])
    case .script, .entryScript:
      let call = "$nbridge$import(" + jsonQuoted(url) + ","
      let rewritten = ScriptSyntax.rewriteDynamicImports(source, replacement: call) ?? (source, [])
      return stage == .entryScript ? allowingTopLevelAwait(rewritten, url: url, host) : rewritten
    }
  }

  /// The entry script `script` (with the columns rewrites inserted, `shifts`) as it runs: when it
  /// is not a valid script but is a valid async function body (it uses top-level `await`), that
  /// body wrapped in an async function, whose rejection is reported as unhandled. The wrapper's
  /// head stays on the first line, so line numbers are unchanged, and stack traces take its
  /// width off first-line columns.
  private static func allowingTopLevelAwait(
    _ rewritten: (script: String, shifts: [[Int]]), url: String, _ host: ExtensionHost
  ) -> (String, [[Int]]) {
    func parses(_ text: String) -> Bool {
      do throws(ThrownValue) {
        try host.checkSyntax(text, url: url)
        return true
      } catch {
        return false
      }
    }
    let (script, shifts) = rewritten
    guard !parses(script) else { return rewritten }
    let head = "(async () => {"
    let wrapped = head + ScriptSyntax.hashbangAsComment(script) + "\n})();"
    guard parses(wrapped) else { return rewritten }
    let width = head.utf16.count
    host.shiftFirstLineColumns(of: url, by: width)
    return (wrapped, [[1, 0, width]] + shifts.map { $0[0] == 1 ? [1, $0[1] + width, $0[2]] : $0 })
  }
}
