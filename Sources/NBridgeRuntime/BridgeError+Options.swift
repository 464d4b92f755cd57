import NBridgePlugin

/// The errors of options the runtime could not take from the JS side.
extension BridgeError {
  /// Options whose JSON text is over `BridgeLimits.maxTextLength` code units.
  static func optionsTooLong(_ length: Int) -> BridgeError {
    BridgeError(
      .invalidParameter,
      "options must be at most \(BridgeLimits.maxTextLength) characters as JSON text (got \(length))")
  }

  /// `invalid_parameter` for options that did not parse: the refused value's path and why, or the syntax error.
  init(optionsParsing error: JSONSyntaxError) {
    self =
      error.refusesValue
      ? BridgeError.invalidParameter(error.path, error.reason)
      : BridgeError(.invalidParameter, "options are not JSON: \(error)")
  }

  /// A page's options text, parsed as a headless call's are (the same limit, the same refusals).
  package static func pageOptions(_ json: Substring) throws(BridgeError) -> JSONValue {
    try checkPageOptionsLength(json)
    do { return try JSONValue(parsingOptions: String(json)) } catch { throw BridgeError(optionsParsing: error) }
  }

  /// A page's options text for an action that reads text: checked as `pageOptions` checks it, not parsed.
  static func pageOptionsText(_ json: Substring) throws(BridgeError) -> OptionsText {
    try checkPageOptionsLength(json)
    do { return try OptionsText(scanning: String(json)) } catch { throw BridgeError(optionsParsing: error) }
  }

  private static func checkPageOptionsLength(_ json: Substring) throws(BridgeError) {
    // A UTF-8 count within the limit bounds the UTF-16 count (which costs a pass) from above.
    if json.utf8.count > BridgeLimits.maxTextLength, json.utf16.count > BridgeLimits.maxTextLength {
      throw optionsTooLong(json.utf16.count)
    }
  }
}
