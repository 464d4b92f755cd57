import NBridgeDBus
import Testing

@testable import NBridgeLocation

/// GeoClue's and the portal's `Location` maps, read into what JS gets.
struct PositionTests {
  @Test func unknownValuesBecomeNull() throws {
    // GeoClue's markers: accuracy 0, altitude -DBL_MAX, speed and heading -1.
    let map: [String: DBusValue] = [
      "Latitude": .double(37.5), "Longitude": .double(127), "Accuracy": .double(0),
      "Altitude": .double(-Double.greatestFiniteMagnitude), "Speed": .double(-1), "Heading": .double(-1),
      "Timestamp": .tuple([.uint64(1_700_000_000), .uint64(250_000)]),
    ]
    let fix = try #require(Position(dbus: map, now: 1))
    #expect(
      fix
        == Position(
          latitude: 37.5, longitude: 127, accuracy: nil, altitude: nil, speed: nil, heading: nil,
          timestamp: 1_700_000_000_250))
  }

  @Test func knownValuesAreKept() throws {
    let map: [String: DBusValue] = [
      "Latitude": .double(-33.9), "Longitude": .double(151.2), "Accuracy": .double(12.5), "Altitude": .double(-3),
      "Speed": .double(0), "Heading": .double(0),
    ]
    let fix = try #require(Position(dbus: map, now: 42))
    #expect(
      fix
        == Position(
          latitude: -33.9, longitude: 151.2, accuracy: 12.5, altitude: -3, speed: 0, heading: 0, timestamp: 42),
      "a zero speed and heading are known values; no timestamp is now")
  }

  @Test func aMapWithoutCoordinatesIsNoFix() {
    #expect(Position(dbus: ["Accuracy": .double(5)], now: 0) == nil)
  }
}
