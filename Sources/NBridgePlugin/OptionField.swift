/// Readers of one field of options a plugin takes as a `JSONValue` (a menu's items, a tray's
/// menu), with the errors the Decodable path gives: `invalid_parameter` naming the field.
public enum OptionField {
  /// A non-empty string of at most `maxBytes` bytes of UTF-8, or nil when the field is absent or
  /// null and not `required`.
  public static func text(_ value: JSONValue?, field: String, required: Bool = false, maxBytes: Int) throws(BridgeError)
    -> String?
  {
    guard let value, value != .null else {
      if required { throw BridgeError.invalidParameter(field, "must be a non-empty string") }
      return nil
    }
    guard case .string(let text) = value, !text.isEmpty else {
      throw BridgeError.invalidParameter(field, "must be a non-empty string")
    }
    return try BridgeLimits.text(text, field: field, maxBytes: maxBytes)
  }

  /// A boolean, or nil when the field is absent or null.
  public static func flag(_ value: JSONValue?, field: String) throws(BridgeError) -> Bool? {
    guard let value, value != .null else { return nil }
    guard case .bool(let flag) = value else { throw BridgeError.invalidParameter(field, "must be a boolean") }
    return flag
  }
}
