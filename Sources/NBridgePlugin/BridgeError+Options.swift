/// The errors of options the runtime could not take from the JS side.
extension BridgeError {
  /// Options whose JSON text is over `BridgeLimits.maxTextLength` code units.
  package static func optionsTooLong(_ length: Int) -> BridgeError {
    BridgeError(
      .invalidParameter,
      "options must be at most \(BridgeLimits.maxTextLength) characters as JSON text (got \(length))")
  }

  /// `invalid_parameter` for options that did not parse: the refused value's path and why, or the syntax error.
  package init(optionsParsing error: JSONSyntaxError) {
    self =
      error.refusesValue
      ? BridgeError.invalidParameter(error.path, error.reason)
      : BridgeError(.invalidParameter, "options are not JSON: \(error)")
  }
}
