import CJavaScriptCore

/// Text JavaScriptCore takes as a string: a Swift string (ASCII stays 8-bit, which JavaScriptCore
/// parses with the code a start runs anyway, not its 16-bit parser's), or UTF-16 code units as
/// they are (no Swift string made on the way).
protocol JSText {
  /// A new `JSStringRef` holding this text; the caller releases it.
  func makeJSString() -> JSStringRef
}

/// Converts between Swift strings and JavaScriptCore strings (UTF-16 inside).
extension String: JSText {
  /// Copies a `JSStringRef`'s UTF-16 code units into a Swift string.
  init(jsString: JSStringRef) {
    let length = JSStringGetLength(jsString)
    guard length > 0, let chars = JSStringGetCharactersPtr(jsString) else {
      self = ""
      return
    }
    let units = UnsafeBufferPointer(start: chars, count: length)
    // ASCII, the usual case, is narrowed byte by byte in one pass that also ORs the units
    // together (no early exit, so the compiler vectorizes it); other text goes through the
    // standard library's UTF-16 decoding (generic code, slower to start, which repairs lone
    // surrogates).
    // `seen` is local to the loop: one captured from outside would be stored on every unit.
    var ascii = false
    let narrowed = String(unsafeUninitializedCapacity: length) { bytes in
      var seen: UInt16 = 0
      for i in 0..<length {
        let unit = units[i]
        seen |= unit
        bytes[i] = UInt8(truncatingIfNeeded: unit)
      }
      ascii = seen < 0x80
      return ascii ? length : 0
    }
    self = ascii ? narrowed : String(decoding: units, as: UTF16.self)
  }

  /// A new `JSStringRef` holding this string; the caller releases it.
  func makeJSString() -> JSStringRef {
    var copy = self
    return copy.withUTF8 { utf8 in
      // JSStringCreateWithUTF8CString needs a NUL-terminated buffer and stops at an embedded NUL,
      // so go through UTF-16 when the text has one.
      utf8.contains(0) ? Array(self.utf16).makeJSString() : withCString { JSStringCreateWithUTF8CString($0) }
    }
  }
}

extension [UInt16]: JSText {
  /// A new `JSStringRef` holding these UTF-16 code units as they are; the caller releases it.
  func makeJSString() -> JSStringRef {
    withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
  }
}
