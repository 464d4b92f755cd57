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

/// `"text"` as a JS string literal.
package func jsonQuoted(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\u{2028}": out += "\\u2028"
    case "\u{2029}": out += "\\u2029"
    default:
      if scalar.value < 0x20 {
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
  }
  return out + "\""
}
