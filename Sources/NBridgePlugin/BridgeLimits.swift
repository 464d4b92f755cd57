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
}
