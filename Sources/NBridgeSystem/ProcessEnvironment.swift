import Glibc

/// The process environment, without Foundation.
package enum ProcessEnvironment {
  /// Every variable of the process.
  package static var current: [String: String] {
    var count = 0
    while environ[count] != nil { count += 1 }
    // Sized at once: grown an insert at a time, the table was rebuilt seven times for 40 variables.
    var result = [String: String](minimumCapacity: count)
    var pointer = environ
    while let entry = pointer.pointee {
      // The `=` found among the bytes, not the characters: grapheme breaking cost a start
      // about 6,000 instructions a variable.
      if let text = String(validatingCString: entry), let eq = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
        result[String(text[..<eq])] = String(text[text.utf8.index(after: eq)...])
      }
      pointer += 1
    }
    return result
  }

  /// One variable, or nil when unset or empty.
  package static func value(_ name: String) -> String? { POSIX.environmentValue(name) }
}
