import Glibc

/// A failed system call: what was attempted and `errno`.
package struct SystemError: Error, CustomStringConvertible {
  /// What was attempted, with the path.
  package var operation: String
  /// The `errno` value.
  package var code: Int32

  /// An error for `operation` with `errno` `code`.
  package init(operation: String, code: Int32) {
    self.operation = operation
    self.code = code
  }

  /// `strerror`'s text for the code.
  package var reason: String { String(cString: strerror(code)) }

  /// `cannot <operation>: <strerror>`.
  package var description: String { "cannot \(operation): \(reason)" }
}
