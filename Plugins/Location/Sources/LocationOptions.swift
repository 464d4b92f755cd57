import NBridgePlugin

/// `current({timeout?, accuracy?})`: how long to wait for a fix, in milliseconds, and how precise.
struct CurrentOptions: Decodable, Sendable {
  /// The wait when `timeout` is not given: long enough for a cold GPS start, short enough to settle.
  static let defaultTimeout = 30_000.0
  /// The longest wait: ten minutes.
  static let maximumTimeout = 600_000.0

  var timeout = CurrentOptions.defaultTimeout
  var accuracy = Accuracy.exact

  init() {}

  init(from decoder: any Decoder) throws {
    if try decoder.singleValueContainer().decodeNil() { return }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    if let timeout = try container.decodeIfPresent(Double.self, forKey: .timeout) {
      guard timeout >= 0, timeout <= Self.maximumTimeout else {
        throw BridgeError.invalidParameter(
          "timeout", "must be 0...\(Int(Self.maximumTimeout)) milliseconds (got \(timeout))")
      }
      self.timeout = timeout
    }
    accuracy = try decodeAccuracy(container, .accuracy) ?? .exact
  }

  private enum CodingKeys: String, CodingKey { case timeout, accuracy }
}

/// `watch({accuracy?, retainCallback})`: how precise the streamed positions are.
struct WatchOptions: Decodable, Sendable {
  var accuracy = Accuracy.exact

  init() {}

  init(from decoder: any Decoder) throws {
    if try decoder.singleValueContainer().decodeNil() { return }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    accuracy = try decodeAccuracy(container, .accuracy) ?? .exact
  }

  private enum CodingKeys: String, CodingKey { case accuracy }
}

/// `simulate({latitude, longitude, accuracy?, altitude?, speed?, heading?})`: the simulated source's next fix.
struct SimulateOptions: Decodable, Sendable {
  var latitude: Double
  var longitude: Double
  var accuracy: Double?
  var altitude: Double?
  var speed: Double?
  var heading: Double?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    latitude = try container.decode(Double.self, forKey: .latitude)
    longitude = try container.decode(Double.self, forKey: .longitude)
    accuracy = try container.decodeIfPresent(Double.self, forKey: .accuracy)
    altitude = try container.decodeIfPresent(Double.self, forKey: .altitude)
    speed = try container.decodeIfPresent(Double.self, forKey: .speed)
    heading = try container.decodeIfPresent(Double.self, forKey: .heading)
    try checkCoordinates(latitude: latitude, longitude: longitude)
    if let accuracy, accuracy < 0 {
      throw BridgeError.invalidParameter("accuracy", "must be at least 0 metres (got \(accuracy))")
    }
    if let speed, speed < 0 { throw BridgeError.invalidParameter("speed", "must be at least 0 (got \(speed))") }
    if let heading, !(0..<360).contains(heading) {
      throw BridgeError.invalidParameter("heading", "must be 0 up to 360 degrees (got \(heading))")
    }
  }

  /// The fix, taken at `now` (Unix milliseconds).
  func position(at now: Double) -> Position {
    Position(
      latitude: latitude, longitude: longitude, accuracy: accuracy, altitude: altitude, speed: speed, heading: heading,
      timestamp: now)
  }

  private enum CodingKeys: String, CodingKey { case latitude, longitude, accuracy, altitude, speed, heading }
}

/// `invalid_parameter` naming `latitude` or `longitude` when either is off the globe.
func checkCoordinates(latitude: Double, longitude: Double) throws {
  guard (-90...90).contains(latitude) else {
    throw BridgeError.invalidParameter("latitude", "must be -90...90 degrees (got \(latitude))")
  }
  guard (-180...180).contains(longitude) else {
    throw BridgeError.invalidParameter("longitude", "must be -180...180 degrees (got \(longitude))")
  }
}

/// The `accuracy` option by name, or `invalid_parameter` listing the names.
private func decodeAccuracy<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> Accuracy? {
  guard let name = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
  guard let accuracy = Accuracy(rawValue: name) else {
    let names = Accuracy.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    throw BridgeError.invalidParameter("accuracy", "must be one of \(names) (got '\(name)')")
  }
  return accuracy
}
