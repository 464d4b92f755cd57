import NBridgeModuleSyntax
import NBridgeRuntime
import NBridgeSystem

/// A syntax error in a changed source file, found before a watched app reloads or restarts.
package struct SourceProblem: Sendable, Equatable {
  /// The file, and JavaScriptCore's (or the module rewrite's) message.
  package var path: String
  package var message: String
  /// 1-based line.
  package var line: Int

  /// `SyntaxError: message (path:line)`.
  package var description: String { "SyntaxError: \(message) (\(path):\(line))" }
}

/// Whether a changed file would parse, without running it (any thread): the file as the loader
/// would load it (types erased, a module rewritten), parsed by the core's `SyntaxCheck`.
package enum SourceCheck {
  /// The first syntax error of `path` (`.js`, `.mjs`, `.cjs` or TypeScript); nil when it parses
  /// or is not JavaScript (or cannot be read).
  package static func problem(ofFile path: String) -> SourceProblem? {
    guard [".js", ".mjs", ".cjs"].contains(where: path.hasSuffix) || TypeStripper.isTypeScript(path),
      let text = POSIX.readText(path)
    else { return nil }
    var units = Array(text.utf16)
    do throws(ModuleSyntaxError) {
      if TypeStripper.isTypeScript(path) { units = try TypeStripper.strip(units: units) }
      if path.hasSuffix(".mjs") || ScriptSyntax.isModule(String(decoding: units, as: UTF16.self)) {
        let info = try ModuleRewriter.rewrite(units: units)
        units = info.programScript ?? info.plainScript ?? info.script
      }
    } catch {
      return SourceProblem(path: path, message: error.message, line: error.line)
    }
    // A module without imports (or a headless entry) may await at its top level: what parses as
    // an async function's body on the same lines is accepted. When neither parses, the error
    // further on is the one to fix.
    let body = Array("(async function(){".utf16) + units + Array("\n})".utf16)
    let errors = SyntaxCheck.errors([units, body], path: path)
    guard let plain = errors[0], let asBody = errors[1] else { return nil }
    let first = asBody.line > plain.line ? asBody : plain
    return SourceProblem(path: path, message: first.message, line: first.line)
  }
}
