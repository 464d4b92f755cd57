import CJavaScriptCore
import NBridgeSystem

/// JavaScriptCore's parse of scripts that are not run (a watched app's changed file, before it
/// reloads): in a context of its own, so any thread may ask.
package enum SyntaxCheck {
  /// Each of `scripts` (UTF-16, named `path`) parsed in turn in one fresh context: nil for one
  /// that parses, else its SyntaxError's message and 1-based line.
  package static func errors(_ scripts: [[UInt16]], path: String) -> [(message: String, line: Int)?] {
    let context = JSGlobalContextCreate(nil)!
    defer { JSGlobalContextRelease(context) }
    let name = path.makeJSString()
    defer { JSStringRelease(name) }
    return scripts.map { units in
      let script = units.makeJSString()
      defer { JSStringRelease(script) }
      var exception: JSValueRef?
      guard !JSCheckScriptSyntax(context, script, name, 1, &exception),
        let error = exception.flatMap({ JSValueToObject(context, $0, nil) })
      else { return nil }
      func property(_ key: String) -> JSValueRef? {
        let keyString = key.makeJSString()
        defer { JSStringRelease(keyString) }
        return JSObjectGetProperty(context, error, keyString, nil)
      }
      let text = property("message").flatMap { JSValueToStringCopy(context, $0, nil) }
      defer { text.map(JSStringRelease) }
      let line = property("line").map { Int(saturating: JSValueToNumber(context, $0, nil)) } ?? 0
      return (text.map { String(jsString: $0) } ?? "", line)
    }
  }
}
