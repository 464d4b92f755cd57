/// What one call's options may hold, whatever the action: checked in JS as the options are read
/// (before any work proportional to a claimed size, such as a sparse array's `length`) and again
/// when the runtime parses them. Actions set tighter limits of their own on the fields they keep.
public enum BridgeLimits {
  /// The deepest nesting of arrays and objects; the options object itself is level 1.
  public static let maxDepth = 512
  /// The most array elements and object members, counted over the whole options value.
  public static let maxValues = 1 << 20
  /// The longest options as JSON text, in UTF-16 code units (64 Mi: room for a pasteboard's
  /// 16 MiB of text with its escapes).
  public static let maxTextLength = 64 << 20

  /// The limits as `bridge.js` reads them.
  package static var json: JSONValue {
    [
      "maxDepth": .number(Double(maxDepth)), "maxValues": .number(Double(maxValues)),
      "maxTextLength": .number(Double(maxTextLength)),
    ]
  }

  /// `text`, checked against a field's limit: at most `maxBytes` bytes of UTF-8, else
  /// `invalid_parameter` naming `field` and the limit (the form every built-in plugin uses).
  public static func text(_ text: String, field: String, maxBytes: Int) throws(BridgeError) -> String {
    let bytes = text.utf8.count
    guard bytes <= maxBytes else {
      throw BridgeError.invalidParameter(field, "must be at most \(maxBytes) bytes of UTF-8 (got \(bytes))")
    }
    return text
  }

  /// `value`'s JSON text, checked against a field's limit: at most `maxBytes` bytes, else
  /// `invalid_parameter` naming `field` and the limit.
  public static func jsonText(_ value: JSONValue, field: String, maxBytes: Int) throws(BridgeError) -> String {
    let json = value.jsonText
    let bytes = json.utf8.count
    guard bytes <= maxBytes else {
      throw BridgeError.invalidParameter(field, "must be at most \(maxBytes) bytes as JSON text (got \(bytes))")
    }
    return json
  }
}
