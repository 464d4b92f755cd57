import NBridgePlugin

/// The documented limits of `storage` and `preference`, and the checks that enforce them.
///
/// A key is at most 1024 bytes of UTF-8, a group name at most 256, and a value at
/// most 1 MiB once written as JSON text. Keys and groups are compared byte for byte.
public enum StorageLimits {
  /// The longest key, in UTF-8 bytes.
  public static let maxKeyBytes = 1024
  /// The longest group name, in UTF-8 bytes.
  public static let maxGroupBytes = 256
  /// The largest value, in bytes of its JSON text.
  public static let maxValueBytes = 1 << 20
  /// The group used when a call names none.
  static let defaultGroup = ""

  /// The key named by `field`, checked: a non-empty string within the limit.
  static func key(_ value: JSONValue?, field: String = "key") throws -> String {
    guard let value else { throw BridgeError.invalidParameter(field, "is required") }
    guard case .string(let key) = value, !key.isEmpty else {
      throw BridgeError.invalidParameter(field, "must be a non-empty string" + got(value))
    }
    return try BridgeLimits.text(key, field: field, maxBytes: maxKeyBytes)
  }

  /// The group: the default one when absent or null, else a non-empty string within the limit.
  static func group(_ value: JSONValue?) throws -> String {
    guard let value, !value.isNull else { return defaultGroup }
    guard case .string(let group) = value, !group.isEmpty else {
      throw BridgeError.invalidParameter("group", "must be a non-empty string when given" + got(value))
    }
    return try BridgeLimits.text(group, field: "group", maxBytes: maxGroupBytes)
  }

  /// Whether the call is about secure values: absent or null is false, else a Boolean.
  static func secure(_ value: JSONValue?) throws -> Bool {
    guard let value, !value.isNull else { return false }
    guard case .bool(let secure) = value else {
      throw BridgeError.invalidParameter("secure", "must be a boolean when given (got \(value.kindName))")
    }
    return secure
  }

  /// The JSON text of the value to store, within the limit.
  static func valueJSON(_ value: JSONValue?) throws -> String {
    guard let value else {
      throw BridgeError.invalidParameter("value", "is required (undefined cannot be stored; store null instead)")
    }
    if case .string(let text) = value, let quoted = plainQuoted(text) {
      guard quoted.utf8.count <= maxValueBytes else {
        throw BridgeError.invalidParameter(
          "value", "must be at most \(maxValueBytes) bytes as JSON text (got \(quoted.utf8.count))")
      }
      return quoted
    }
    return try BridgeLimits.jsonText(value, field: "value", maxBytes: maxValueBytes)
  }

  /// The value's JSON text as the call's options held it, within the limit: stored as it is.
  static func valueJSON(text: Substring?) throws -> String {
    guard let text else {
      throw BridgeError.invalidParameter("value", "is required (undefined cannot be stored; store null instead)")
    }
    let bytes = text.utf8.count
    guard bytes <= maxValueBytes else {
      throw BridgeError.invalidParameter("value", "must be at most \(maxValueBytes) bytes as JSON text (got \(bytes))")
    }
    return String(text)
  }

  /// The JSON text of a string holding nothing JSON escapes (a quote, a backslash, a control
  /// character): its UTF-8 between quotes, scanned a word at a time and copied once into one allocation (most stored
  /// strings are such; the JSON writer's buffer and the check of its UTF-8 cost a `set` of 100
  /// bytes ~1.3k instructions, and three appends to a reserved string ~1.5k).
  private static func plainQuoted(_ text: String) -> String? {
    var text = text
    return text.withUTF8 { bytes -> String? in
      guard PlainText.plainPrefix(bytes) == bytes.count else { return nil }
      return String(unsafeUninitializedCapacity: bytes.count + 2) { out in
        out[0] = 0x22
        _ = UnsafeMutableBufferPointer(rebasing: out[1...]).initialize(fromContentsOf: bytes)
        out[bytes.count + 1] = 0x22
        return bytes.count + 2
      }
    }
  }

  private static func got(_ value: JSONValue) -> String {
    if case .string = value { return "" }
    return " (got \(value.kindName))"
  }
}
