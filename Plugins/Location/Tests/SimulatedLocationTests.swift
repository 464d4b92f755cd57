import Foundation
import NBridgeTesting
import Testing

/// The simulated source: `NBRIDGE_LOCATION` in any run (a developer's fixed position) and what
/// `location.simulate` does outside `nbridge test` (Tests/js/location.test.js covers `nbridge test`).
@Suite struct SimulatedLocationTests {
  @Test func nbridgeLocationGivesEveryRunAFixedPosition() throws {
    let app = try LocationApp(
      """
      \(GeoClueLocationTests.report)
      (async () => {
        await report('available', nbridge.location.available());
        const fix = await nbridge.location.current();
        console.log('current ' + [fix.latitude, fix.longitude, fix.accuracy, fix.altitude].join(' '));
      })();
      """)
    let result = try app.run([
      "NBRIDGE_LOCATION": "59.3293, 18.0686, 25", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nowhere",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "available {\"source\":\"simulated\"}\ncurrent 59.3293 18.0686 25 \n", "\(result.stdout)")
  }

  @Test func aMalformedNbridgeLocationIsUnavailableNamingIt() throws {
    let app = try LocationApp(
      """
      \(GeoClueLocationTests.report)
      report('current', nbridge.location.current());
      """)
    let result = try app.run(["NBRIDGE_LOCATION": "91,0"])
    #expect(
      result.stdout
        == "current unavailable: location.current: NBRIDGE_LOCATION must be 'latitude,longitude' or 'latitude,longitude,accuracy' (got '91,0')\n",
      "\(result.stdout)")
  }

  @Test func simulateIsRefusedWhenTheRunReadsGeoClue() throws {
    let app = try LocationApp(
      """
      \(GeoClueLocationTests.report)
      report('simulate', nbridge.location.simulate({ latitude: 1, longitude: 2 }));
      """)
    let result = try app.run(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nowhere"])
    #expect(
      result.stdout
        == "simulate unavailable: location.simulate: this run reads positions from geoclue; simulate moves only the simulated source (nbridge test, or NBRIDGE_LOCATION set)\n",
      "\(result.stdout)")
  }

  @Test func withoutThePermissionEveryCallIsDenied() throws {
    let app = try LocationApp(
      """
      \(GeoClueLocationTests.report)
      (async () => {
        await report('available', nbridge.location.available());
        await report('current', nbridge.location.current());
      })();
      """, permissions: #"["app"]"#)
    let result = try app.run(["NBRIDGE_LOCATION": "1,2"])
    #expect(result.stdout.components(separatedBy: " permission_denied: ").count == 3, "\(result.stdout)")
  }
}
