import CJavaScriptCore

/// Strings between JS and C without a Swift `String` in between: byte strings (the Fetch
/// standard's header names and values, methods, serialized URLs) out, UTF-8 in.
extension JSContext {
  /// Calls `body` with `String(value)` as NUL-terminated bytes, each code unit's low byte (the
  /// callers pass byte strings: code units above 255 were refused before this point).
  func withByteString<T>(_ value: JSValueRef?, _ body: (UnsafePointer<CChar>) -> T) -> T {
    guard let value, let string = JSValueToStringCopy(ref, value, nil) else { return body("") }
    defer { JSStringRelease(string) }
    let count = JSStringGetLength(string)
    let units = JSStringGetCharactersPtr(string)
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { bytes in
      for i in 0..<count { bytes[i] = CChar(truncatingIfNeeded: units![i]) }
      bytes[count] = 0
      return body(UnsafePointer(bytes.baseAddress!))
    }
  }

  /// A JS string of NUL-terminated UTF-8 (`""` for NULL), made without a Swift `String`.
  func utf8String(_ text: UnsafePointer<CChar>?) -> JSValueRef {
    let string = text.map { JSStringCreateWithUTF8CString($0) } ?? JSStringCreateWithUTF8CString("")
    defer { JSStringRelease(string) }
    return JSValueMakeString(ref, string)
  }
}
