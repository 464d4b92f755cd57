import NBridgePlugin

/// A call's options as they reach `dispatch`: a value, or their JSON text left unparsed for an
/// action that reads it in place (`OptionsFromJSON`), so that the text is read once.
package enum CallOptions {
  /// Parsed options (an action taking a `Decodable`, a window's call by name).
  case value(JSONValue)
  /// The options' JSON text, checked and with its top-level fields found, not parsed.
  case text(OptionsText)

  /// Options read from JSON text (a call `native.startAll` starts, a window's page's), for an
  /// action that reads text or not: at most `BridgeLimits.maxTextLength` UTF-16 units, and the
  /// refusals of options a script's call sends as a JS string.
  package init(text json: Substring, readsText: Bool) throws(BridgeError) {
    // A UTF-8 count within the limit bounds the UTF-16 count (which costs a pass) from above.
    if json.utf8.count > BridgeLimits.maxTextLength, json.utf16.count > BridgeLimits.maxTextLength {
      throw BridgeError.optionsTooLong(json.utf16.count)
    }
    do {
      self = readsText ? .text(try OptionsText(scanning: String(json))) : .value(try JSONValue(parsingOptions: String(json)))
    } catch {
      throw BridgeError(optionsParsing: error)
    }
  }

  /// The options as a value (text only reaches an action that reads text, so this rarely parses).
  package var value: JSONValue {
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
