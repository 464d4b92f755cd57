import NBridgeDBus

/// One position fix as JS receives it (WKBridgeKit's `latitude`/`longitude`, plus what the W3C
/// Geolocation API's coordinates hold); null where the source does not know.
struct Position: Encodable, Equatable, Sendable {
  /// Degrees north.
  var latitude: Double
  /// Degrees east.
  var longitude: Double
  /// Radius of the fix's uncertainty in metres.
  var accuracy: Double?
  /// Metres above sea level.
  var altitude: Double?
  /// Metres per second.
  var speed: Double?
  /// Degrees clockwise from true north.
  var heading: Double?
  /// When the fix was taken, in Unix milliseconds.
  var timestamp: Double

  /// Encodes the unknown fields as `null` (not absent), so every position has the same keys.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(latitude, forKey: .latitude)
    try container.encode(longitude, forKey: .longitude)
    try container.encode(accuracy, forKey: .accuracy)
    try container.encode(altitude, forKey: .altitude)
    try container.encode(speed, forKey: .speed)
    try container.encode(heading, forKey: .heading)
    try container.encode(timestamp, forKey: .timestamp)
  }

  private enum CodingKeys: String, CodingKey { case latitude, longitude, accuracy, altitude, speed, heading, timestamp }
}

extension Position {
  /// Reads GeoClue's `Location` properties or the portal's `LocationUpdated` map (the same keys):
  /// GeoClue marks an unknown altitude with `-DBL_MAX`, an unknown speed or heading with a negative
  /// number and an unknown accuracy with 0. Nil when latitude or longitude is missing.
  init?(dbus map: [String: DBusValue], now: Double) {
    guard let latitude = map["Latitude"]?.double, let longitude = map["Longitude"]?.double else { return nil }
    self.latitude = latitude
    self.longitude = longitude
    accuracy = map["Accuracy"]?.double.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    altitude = map["Altitude"]?.double.flatMap { $0 > -1e300 && $0.isFinite ? $0 : nil }
    speed = map["Speed"]?.double.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
    heading = map["Heading"]?.double.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil }
    let parts = map["Timestamp"]?.members ?? []
    if parts.count == 2, let seconds = parts[0].uint64, let micro = parts[1].uint64, seconds > 0 {
      timestamp = Double(seconds) * 1000 + Double(micro / 1000)
    } else {
      timestamp = now
    }
  }
}
