import NBridgePlugin

/// How a fetch ended: what the listener answered (or `failed` when nobody answered in time).
enum FetchResult: String, Sendable, Codable {
  /// New content was fetched.
  case newData
  /// Nothing new.
  case noData
  /// The fetch did not work.
  case failed

  /// Reads `completeFetch`'s `result`.
  init(option: JSONValue) throws {
    guard let text = option.stringValue, let result = FetchResult(rawValue: text) else {
      throw BridgeError.invalidParameter(
        "result", "must be 'newData', 'noData' or 'failed' (got \(QuotedValue.json(option)))")
    }
    self = result
  }
}
