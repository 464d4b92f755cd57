import NBridgePlugin

/// A call's options as they reach `dispatch`: a value, or their JSON text left unparsed for an
/// action that reads it in place (`OptionsFromJSON`), so that the text is read once.
package enum CallOptions {
  /// Parsed options (an action taking a `Decodable`, a window's call by name).
  case value(JSONValue)
  /// The options' JSON text, checked and with its top-level fields found, not parsed.
  case text(OptionsText)

  /// The options as a value (text only reaches an action that reads text, so this rarely parses).
  var value: JSONValue {
    switch self {
    case .value(let value): value
    case .text(let text): text.value
    }
  }

  /// The options as JSON text (a value is written as text: a window's call of an action that reads text).
  func text() throws(BridgeError) -> OptionsText {
    switch self {
    case .text(let text): return text
    case .value(let value):
      do { return try OptionsText(value: value) } catch { throw BridgeError(optionsParsing: error) }
    }
  }
}
