import NBridgePlugin
import NBridgeRuntime

/// A page's options text, read as a headless call's options are: the same length limit, the same refusals.
extension BridgeError {
  /// A page's options text, parsed.
  static func pageOptions(_ json: Substring) throws(BridgeError) -> JSONValue {
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
