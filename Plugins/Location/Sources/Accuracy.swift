/// How precise a position the app asks for, coarsest first: GeoClue's accuracy levels by name.
enum Accuracy: String, Decodable, Sendable, Comparable, CaseIterable {
  case country, city, neighborhood, street, exact

  /// GeoClue2's `GClueAccuracyLevel` (`RequestedAccuracyLevel`).
  var geoClueLevel: UInt32 {
    switch self {
    case .country: 1
    case .city: 4
    case .neighborhood: 5
    case .street: 6
    case .exact: 8
    }
  }

  /// The Location portal's `accuracy` option.
  var portalLevel: UInt32 {
    switch self {
    case .country: 1
    case .city: 2
    case .neighborhood: 3
    case .street: 4
    case .exact: 5
    }
  }

  static func < (a: Accuracy, b: Accuracy) -> Bool { a.geoClueLevel < b.geoClueLevel }
}
