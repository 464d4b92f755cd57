/// The error a plugin throws to reject a call with a code; anything else thrown becomes `unknown_error`.
///
/// The runtime prefixes the message with `service.action: `, so a plugin writes only
/// what was wrong: `BridgeError.invalidParameter("key", "must be a non-empty string")`.
public struct BridgeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The code the rejected JS `Error` carries.
  public var code: ErrorCode
  /// What was wrong, naming the field where there is one.
  public var message: String

  /// An error with a code and a message (cut after `maxMessageCharacters` characters with `…`).
  public init(_ code: ErrorCode, _ message: String) {
    self.code = code
    self.message = message.utf8.count > Self.maxMessageCharacters ? Self.cut(message) : message
  }

  /// The longest message kept whole: one that quotes a huge value a script passed is cut, so a
  /// rejection never carries (or logs) megabytes. Plugins quote values with `QuotedValue`.
  package static let maxMessageCharacters = 2048

  private static func cut(_ message: String) -> String {
    let head = message.prefix(maxMessageCharacters)
    return head.endIndex < message.endIndex ? String(head) + "…" : message
  }

  /// `invalid_parameter` for a field: `"key" must be a non-empty string`.
  public static func invalidParameter(_ field: String, _ problem: String) -> BridgeError {
    BridgeError(.invalidParameter, "\"\(field)\" \(problem)")
  }

  /// `not_found` with a message.
  public static func notFound(_ message: String) -> BridgeError { BridgeError(.notFound, message) }

  /// `unavailable` with a message.
  public static func unavailable(_ message: String) -> BridgeError { BridgeError(.unavailable, message) }

  /// The code and the message as one line, `code: message`, for logs and test failures.
  public var description: String { "\(code.rawValue): \(message)" }
}
