import Foundation
import NBridgeTesting
import Testing

/// `nbridge.location` against the real GeoClue2 on a private system bus, fed by an NMEA socket.
@Suite(.serialized)
struct GeoClueLocationTests {
  /// Prints a call's outcome as one line: the value as JSON, or `code: message`.
  static let report = """
    const report = (label, promise) => promise.then(
      (value) => console.log(label + ' ' + JSON.stringify(value)),
      (error) => console.log(label + ' ' + error.code + ': ' + error.message));
    """

  @Test func currentAnswersWithTheServedPositionAndAvailableNamesGeoClue() throws {
    let system = try GeoClueSystem(position: "37.5665,126.978")
    let app = try LocationApp(
      """
      \(Self.report)
      (async () => {
        await report('available', nbridge.location.available());
        await report('current', nbridge.location.current({ timeout: 20000 }));
      })();
      """)
    let result = try app.run(system.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#"available {"source":"geoclue"}"#), "\(result.stdout)")
    let line = try #require(
      result.stdout.split(separator: "\n").first { $0.hasPrefix("current {") }, "\(result.stdout)")
    let fix = try #require(
      try JSONSerialization.jsonObject(with: Data(line.dropFirst("current ".count).utf8)) as? [String: Any])
    #expect(abs((fix["latitude"] as? Double ?? 0) - 37.5665) < 1e-4)
    #expect(abs((fix["longitude"] as? Double ?? 0) - 126.978) < 1e-4)
    #expect(fix["altitude"] as? Double == 45, "the $GPGGA altitude")
    #expect(fix["heading"] as? Double == 90, "the $GPRMC course")
    #expect(abs((fix["speed"] as? Double ?? 0) - 0.5 * 0.514444) < 1e-3, "the $GPRMC speed, knots to m/s")
    #expect(fix.keys.sorted() == ["accuracy", "altitude", "heading", "latitude", "longitude", "speed", "timestamp"])
    let timestamp = fix["timestamp"] as? Double ?? 0
    #expect(abs(timestamp - Date().timeIntervalSince1970 * 1000) < 120_000, "a Unix time in milliseconds")
  }

  @Test func watchStreamsTheNextPositionAndClearWatchStopsGeoClueClient() throws {
    let system = try GeoClueSystem(position: "37.5665,126.978")
    let app = try LocationApp(
      """
      let moved = false;
      const watching = nbridge.location.watch({ retainCallback: (fix) => {
        const at = fix.latitude.toFixed(4) + ',' + fix.longitude.toFixed(4);
        console.log('fix ' + at);
        if (at === '48.8566,2.3522' && !moved) {
          moved = true;
          nbridge.location.clearWatch().then((cleared) => console.log('cleared ' + cleared.cleared));
        }
      } });
      watching.then((value) => console.log('watch ended ' + value));
      setTimeout(() => {}, 120000);
      """)
    let process = try app.start(system.environment)
    defer { process.stop() }
    #expect(process.waitForOutput("fix 37.5665,126.9780\n", timeout: 30), "\(process.stdout)\(process.stderr)")
    #expect(system.inUse == true, "GeoClue's client is started while the watch runs")
    try system.move(to: "48.8566,2.3522")
    #expect(process.waitForOutput("fix 48.8566,2.3522\n", timeout: 30), "\(process.stdout)\(process.stderr)")
    #expect(process.waitForOutput("cleared 1\n", timeout: 10), "\(process.stdout)")
    #expect(process.waitForOutput("watch ended null\n", timeout: 10), "\(process.stdout)")
    #expect(system.waitForInUse(false), "clearWatch stopped GeoClue's client while the app still runs")
    #expect(process.isRunning)
  }

  @Test func noFixWithinTheTimeoutRejectsTimeout() throws {
    let system = try GeoClueSystem(position: "")
    let app = try LocationApp(
      """
      \(Self.report)
      report('current', nbridge.location.current({ timeout: 1500 }));
      """)
    let result = try app.run(system.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "current timeout: location.current: no position within 1500 ms\n", "\(result.stdout)")
    #expect(system.waitForInUse(false), "the source is stopped once nobody waits")
  }

  @Test func anAgentThatTurnedLocationOffIsPermissionDenied() throws {
    let system = try GeoClueSystem(position: "37.5665,126.978", agentLevel: 0)
    let app = try LocationApp(
      """
      \(Self.report)
      (async () => {
        await report('available', nbridge.location.available());
        await report('current', nbridge.location.current());
      })();
      """)
    let result = try app.run(system.environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == """
        available permission_denied: location.available: GeoClue2 refused: Geolocation disabled for UID \(getuid())
        current permission_denied: location.current: GeoClue2 refused: Geolocation disabled for UID \(getuid())

        """, "\(result.stdout)")
  }

  @Test func withoutGeoClueOnTheBusEveryCallIsUnavailable() throws {
    let system = try GeoClueSystem(geoclue: false)
    let app = try LocationApp(
      """
      \(Self.report)
      (async () => {
        await report('available', nbridge.location.available());
        await report('current', nbridge.location.current());
        await report('watch', nbridge.location.watch({ retainCallback: () => {} }));
      })();
      """)
    let result = try app.run(system.environment)
    #expect(result.status == 0, "\(result.stderr)")
    let missing =
      "GeoClue2 (org.freedesktop.GeoClue2) is not running on the system bus and cannot be started there (is geoclue-2.0 installed?)"
    #expect(
      result.stdout == """
        available unavailable: location.available: \(missing)
        current unavailable: location.current: \(missing)
        watch unavailable: location.watch: \(missing)

        """, "\(result.stdout)")
  }

  @Test func withoutASystemBusEveryCallIsUnavailableNamingIt() throws {
    let folder = try TemporaryDirectory(prefix: "nbridge-nobus")
    let address = "unix:path=\(folder.file("no-bus"))"
    let app = try LocationApp(
      """
      \(Self.report)
      report('available', nbridge.location.available());
      """)
    let result = try app.run(["DBUS_SYSTEM_BUS_ADDRESS": address])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.hasPrefix(
        "available unavailable: location.available: cannot reach the D-Bus system bus at \(address), where GeoClue2 runs: "
      ),
      "\(result.stdout)")
  }
}
