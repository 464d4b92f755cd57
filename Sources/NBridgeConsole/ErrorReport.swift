import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// How an uncaught JS value prints after `Uncaught `: `Name: message` and a stack of
/// `file:line:column` (inspect.js's `formatError`); for a syntax error (JSC gives no column) and
/// for an error about an import (the module loader gives its place as `nbridgeColumn`) the file,
/// line, source line and a caret at the token. The console extension's `describeUncaught` hook.
@BridgeActor
enum ErrorReport {
  /// `value` described; nil when the prelude has no `formatError` (the runtime then prints it plainly).
  static func describe(_ value: ScriptValue, _ host: ExtensionHost) -> String? {
    if host.isObject(value), let lineNumber = host.number(host.property(value, "line")),
      case let name = host.text(host.property(value, "name")),
      case let columnNumber = host.number(host.property(value, "nbridgeColumn")),
      name == "SyntaxError" || columnNumber != nil
    {
      let line = Int(saturating: lineNumber)
      let url = host.text(host.property(value, "sourceURL"))
      let message = host.text(host.property(value, "message"))
      var text = "\(name): \(message)\n    at \(url):\(line)"
      // A module loaded from the module cache was not read this run: read it now.
      if let source = host.source(of: url) ?? (url.hasPrefix("/") ? POSIX.readText(url) : nil) {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        if line >= 1 && line <= lines.count {
          let sourceLine = String(lines[line - 1])
          text += "\n\n    \(sourceLine)"
          if let columnNumber {
            let column = Int(saturating: columnNumber)
            text += "\n    " + String(repeating: " ", count: min(max(0, column), sourceLine.count)) + "^"
          } else if let token = quotedToken(in: message), let column = offset(of: token, in: sourceLine) {
            text += "\n    " + String(repeating: " ", count: column) + "^"
          }
        }
      }
      return text
    }
    guard let format = host.hook("formatError"), let text = try? host.call(format, [value]) else { return nil }
    return host.text(text)
  }

  /// The character offset of the first occurrence of `needle` in `haystack`.
  static func offset(of needle: String, in haystack: String) -> Int? {
    let h = Array(haystack)
    let n = Array(needle)
    guard !n.isEmpty, n.count <= h.count else { return nil }
    for start in 0...(h.count - n.count) where Array(h[start..<start + n.count]) == n { return start }
    return nil
  }

  /// The token JSC names in messages such as `Unexpected token '}'`.
  static func quotedToken(in message: String) -> String? {
    guard let open = message.firstIndex(of: "'") else { return nil }
    let rest = message[message.index(after: open)...]
    guard let close = rest.lastIndex(of: "'"), close > rest.startIndex else { return nil }
    let token = String(rest[..<close])
    return token.isEmpty ? nil : token
  }
}
