import CJavaScriptCore
import NBridgeModuleSyntax

/// A syntax error in a changed source file, found before a watched app reloads.
package struct SourceProblem: Sendable, Equatable {
  /// The file, and JavaScriptCore's (or the module rewrite's) message.
  package var path: String
  package var message: String
  /// 1-based line.
  package var line: Int

  /// `SyntaxError: message (path:line)`.
  package var description: String { "SyntaxError: \(message) (\(path):\(line))" }
}

extension Runtime {
  /// The first syntax error of `path` (a `.js`, `.mjs`, `.cjs` or TypeScript file) as it would
  /// load, parsed in this runtime's context without running it; nil when it parses or is not
  /// JavaScript.
  package func syntaxProblem(ofFile path: String) -> SourceProblem? {
    guard [".js", ".mjs", ".cjs"].contains(where: path.hasSuffix) || TypeStripper.isTypeScript(path),
      let text = readTextFile(path)
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
    guard let plain = parseProblem(units, path: path) else { return nil }
    // A module without imports (or a headless entry) may await at its top level: what parses as
    // an async function's body on the same lines is accepted. When neither parses, the error
    // further on is the one to fix.
    guard let asBody = parseProblem(Array("(async function(){".utf16) + units + Array("\n})".utf16), path: path)
    else { return nil }
    return asBody.line > plain.line ? asBody : plain
  }

  /// JavaScriptCore's syntax error for `units` as a script, nil when they parse.
  private func parseProblem(_ units: [UInt16], path: String) -> SourceProblem? {
    do throws(JSException) {
      try js.checkSyntax(units: units, url: path)
    } catch {
      let object = js.object(error.value)
      let message = object.flatMap { js.property($0, "message") }.map { js.toString($0) } ?? js.toString(error.value)
      let line = object.flatMap { js.property($0, "line") }.map { Int(JSValueToNumber(js.ref, $0, nil)) } ?? 0
      return SourceProblem(path: path, message: message, line: line)
    }
    return nil
  }
}
