import NBridgePlugin

/// How often the app wants background fetches: `setMinimumFetchInterval`'s `interval`.
enum FetchInterval: Equatable, Sendable {
  /// No fetches (the default, as on iOS).
  case never
  /// At most one fetch per this many seconds, before backoff.
  case seconds(Double)

  /// The longest interval: 365 days, in seconds. With the backoff's eight intervals on top, a due
  /// time stays far inside what a millisecond count (and systemd's timer) can hold.
  static let maximum: Double = 365 * 86_400

  /// The shortest interval: 600 s, the seed's ~10 minutes; `NBRIDGE_FETCH_MINIMUM` lowers it (tests).
  static func floor(environment: [String: String]) -> Double {
    if let text = environment["NBRIDGE_FETCH_MINIMUM"], let value = Double(text), value > 0, value <= maximum {
      return value
    }
    return 600
  }

  /// Reads `'never'`, `'minimum'` or a number of seconds (raised to `floor`, at most `maximum`).
  init(option: JSONValue, floor: Double) throws {
    switch option {
    case .string("never"): self = .never
    case .string("minimum"): self = .seconds(floor)
    case .number(let n) where n.isFinite && n > 0:
      guard n <= Self.maximum else {
        throw BridgeError.invalidParameter(
          "interval", "must be at most \(Int(Self.maximum)) seconds (365 days) (got \(QuotedValue.json(option)))")
      }
      self = .seconds(Swift.max(n, floor))
    default:
      throw BridgeError.invalidParameter(
        "interval", "must be 'never', 'minimum' or a positive number of seconds (got \(QuotedValue.json(option)))")
    }
  }

  /// A saved interval (`background.json`, a daemon record) brought within the limits, so a file
  /// written by hand or by an older nbridge cannot overflow the arithmetic on it.
  static func clamped(_ seconds: Double) -> Double {
    seconds.isNaN ? 600 : Swift.min(Swift.max(seconds, 1), maximum)
  }

  /// `'never'` or the seconds, as `getFetchStatus` reports it.
  var json: JSONValue {
    switch self {
    case .never: "never"
    case .seconds(let s): .number(s)
    }
  }

  /// The seconds, or nil for `never`.
  var seconds: Double? {
    if case .seconds(let s) = self { return s }
    return nil
  }
}
