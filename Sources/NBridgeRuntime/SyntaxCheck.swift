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
    let name = JSStringCreateWithUTF8CString(path)
    defer { JSStringRelease(name) }
    return scripts.map { units in
      let script = units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
      defer { JSStringRelease(script) }
      var exception: JSValueRef?
      guard !JSCheckScriptSyntax(context, script, name, 1, &exception), let exception,
        let error = JSValueToObject(context, exception, nil)
      else { return nil }
      func property(_ key: String) -> JSValueRef? {
        let keyString = JSStringCreateWithUTF8CString(key)
        defer { JSStringRelease(keyString) }
        return JSObjectGetProperty(context, error, keyString, nil)
      }
      var message = ""
      if let value = property("message"), let text = JSValueToStringCopy(context, value, nil) {
        defer { JSStringRelease(text) }
        let count = JSStringGetLength(text)
        message = String(decoding: UnsafeBufferPointer(start: JSStringGetCharactersPtr(text), count: count), as: UTF16.self)
      }
      return (message, property("line").map { Int(saturating: JSValueToNumber(context, $0, nil)) } ?? 0)
    }
  }
}
