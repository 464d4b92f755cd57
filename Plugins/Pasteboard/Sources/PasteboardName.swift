import NBridgePlugin

/// The name of a named pasteboard, checked when the options decode: it becomes a file
/// name in the shared folder, so it is 1–128 bytes of UTF-8 without `/`, control
/// characters or a leading `.` (which keeps `.`, `..` and the store's own files out).
struct PasteboardName: Decodable, Hashable, Sendable, CustomStringConvertible {
  /// The longest name, in UTF-8 bytes.
  static let maxBytes = 128

  /// The name as the script wrote it.
  let rawValue: String

  /// A checked name; the error names the field `name`.
  init(_ rawValue: String, field: String = "name") throws(BridgeError) {
    if let problem = PasteboardName.problem(with: rawValue) {
      throw BridgeError.invalidParameter(field, problem)
    }
    self.rawValue = rawValue
  }

  init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    try self.init(text, field: formatCodingPath(decoder.codingPath))
  }

  /// Why `text` is not a valid name, or nil when it is.
  static func problem(with text: String) -> String? {
    if text.isEmpty { return "must be a non-empty string" }
    if text.utf8.count > maxBytes { return "must be at most \(maxBytes) bytes of UTF-8 (got \(text.utf8.count))" }
    if text.hasPrefix(".") { return "must not start with \".\"" }
    if text.contains("/") { return "must not contain \"/\"" }
    if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      return "must not contain control characters"
    }
    return nil
  }

  var description: String { rawValue }
}
