import CJavaScriptCore
import NBridgeModuleSyntax
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

/// Whether a changed file would parse, without running it: in a context of its own (any thread),
/// the file as it would load (types erased, a module rewritten).
package enum SourceCheck {
  /// The first syntax error of `path` (`.js`, `.mjs`, `.cjs` or TypeScript); nil when it parses
  /// or is not JavaScript (or cannot be read).
  package static func problem(ofFile path: String) -> SourceProblem? {
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
    let context = JSGlobalContextCreate(nil)!
    defer { JSGlobalContextRelease(context) }
    guard let plain = parseProblem(units, path: path, in: context) else { return nil }
    // A module without imports (or a headless entry) may await at its top level: what parses as
    // an async function's body on the same lines is accepted. When neither parses, the error
    // further on is the one to fix.
    let body = Array("(async function(){".utf16) + units + Array("\n})".utf16)
    guard let asBody = parseProblem(body, path: path, in: context) else { return nil }
    return asBody.line > plain.line ? asBody : plain
  }

  /// JavaScriptCore's syntax error for `units` as a script, nil when they parse.
  private static func parseProblem(_ units: [UInt16], path: String, in context: JSGlobalContextRef) -> SourceProblem? {
    let script = units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    defer { JSStringRelease(script) }
    let name = JSStringCreateWithUTF8CString(path)
    defer { JSStringRelease(name) }
    var exception: JSValueRef?
    guard !JSCheckScriptSyntax(context, script, name, 1, &exception), let exception else { return nil }
    func property(_ key: String) -> JSValueRef? {
      guard let object = JSValueToObject(context, exception, nil) else { return nil }
      let keyString = JSStringCreateWithUTF8CString(key)
      defer { JSStringRelease(keyString) }
      return JSObjectGetProperty(context, object, keyString, nil)
    }
    func text(_ value: JSValueRef?) -> String {
      guard let value, let string = JSValueToStringCopy(context, value, nil) else { return "" }
      defer { JSStringRelease(string) }
      let count = JSStringGetLength(string)
      return String(decoding: UnsafeBufferPointer(start: JSStringGetCharactersPtr(string), count: count), as: UTF16.self)
    }
    let line = property("line").map { Int(JSValueToNumber(context, $0, nil)) } ?? 0
    return SourceProblem(path: path, message: text(property("message")), line: line)
  }
}
