import CJavaScriptCore
import NBridgePlugin
import NBridgeSystem

/// Formats an uncaught JS value: `Uncaught Name: message` and a stack of `file:line:column`;
/// for a syntax error (JSC gives no column) and for an error about an import (the module loader
/// gives its place as `nbridgeColumn`) the file, line, source line and a caret at the token.
@BridgeActor
enum ErrorReport {
  static func describe(_ value: JSValueRef, in runtime: Runtime, prefix: String) -> String {
    let js = runtime.js
    if let object = js.object(value), let lineValue = js.property(object, "line"), JSValueIsNumber(js.ref, lineValue),
      case let name = js.toString(js.property(object, "name")),
      name == "SyntaxError" || JSValueIsNumber(js.ref, js.property(object, "nbridgeColumn"))
    {
      let line = Int(saturating: JSValueToNumber(js.ref, lineValue, nil))
      let url = js.toString(js.property(object, "sourceURL"))
      let message = js.toString(js.property(object, "message"))
      var text = "\(prefix) \(name): \(message)\n    at \(url):\(line)"
      // A module loaded from the module cache was not read this run: read it now.
      if let source = runtime.sources[url] ?? (url.hasPrefix("/") ? POSIX.readText(url) : nil) {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        if line >= 1 && line <= lines.count {
          let sourceLine = String(lines[line - 1])
          text += "\n\n    \(sourceLine)"
          if let columnValue = js.property(object, "nbridgeColumn"), JSValueIsNumber(js.ref, columnValue) {
            let column = Int(saturating: JSValueToNumber(js.ref, columnValue, nil))
            text += "\n    " + String(repeating: " ", count: min(max(0, column), sourceLine.count)) + "^"
          } else if let token = quotedToken(in: message), let column = offset(of: token, in: sourceLine) {
            text += "\n    " + String(repeating: " ", count: column) + "^"
          }
        }
      }
      return text
    }
    if let format = runtime.formatErrorFunction, let text = try? js.call(format, [value]) {
      return "\(prefix) \(js.toString(text))"
    }
    return "\(prefix) \(js.toString(value))"
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
