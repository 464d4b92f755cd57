import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// WebKit's own `navigator.geolocation` in `nbridge app` (Xvfb): its permission request is
/// answered by the app's `location` permission, and its positions come from `nbridge.location`'s
/// source: the real GeoClue2 (on a private system bus, fed by an NMEA socket), or the simulated
/// source `NBRIDGE_LOCATION` sets.
@Suite(.serialized, .onTestThreads) struct WindowGeolocationTests {
  @Test func aPageGetsGeoCluesPositionThroughTheAppsLocationSource() throws {
    let system = try GeoClueSystem(position: "48.8566,2.3522")
    var desktop = try AppWindowTests.Desktop()
    desktop.env.merge(system.environment) { $1 }
    desktop.env["NBRIDGE_LOCATION"] = nil
    // Left running after the script: WebKit's "stop" must end the app's GeoClue client.
    let app = try NBridgeTest.start(
      ["app", AppWindowTests.fixtures, "--script", desktop.script("geolocation.js")], environment: desktop.env)
    defer { app.stop() }
    #expect(app.waitForOutput("}\n", timeout: 60), "\(app.stdout)\(app.stderr)")
    let result = ScriptOutput.json(app.stdout)
    #expect(abs((result["latitude"] as? Double ?? 0) - 48.8566) < 1e-4, "\(app.stdout)\(app.stderr)")
    #expect(abs((result["longitude"] as? Double ?? 0) - 2.3522) < 1e-4, "\(app.stdout)")
    // The $GPGGA altitude and $GPRMC course: nbridge's source hands WebKit the whole fix.
    #expect(result["altitude"] as? Double == 45, "\(app.stdout)")
    #expect(result["heading"] as? Double == 90, "\(app.stdout)")
    #expect(system.waitForInUse(false), "GeoClue's client still started after the page had its position")
    #expect(app.isRunning, "\(app.stderr)")
  }

  @Test func aPageIsDeniedGeoCluesPositionWithoutLocation() throws {
    let system = try GeoClueSystem(position: "48.8566,2.3522")
    var desktop = try AppWindowTests.Desktop()
    desktop.env.merge(system.environment) { $1 }
    desktop.env["NBRIDGE_LOCATION"] = nil
    let r = try desktop.app(["--deny", "location", "--script", desktop.script("geolocation.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["code"] as? Int == 1, "PERMISSION_DENIED: \(r.stdout)")
    #expect(result["denied"] as? Bool == true, "\(r.stdout)")
    #expect(result["latitude"] == nil, "\(r.stdout)")
  }

  @Test func aPageGetsTheSimulatedPositionWhenTheAppMayUseLocation() throws {
    var desktop = try AppWindowTests.Desktop()
    desktop.env["NBRIDGE_LOCATION"] = "37.5665,126.978"
    let r = try desktop.app(["--script", desktop.script("geolocation.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["latitude"] as? Double == 37.5665, "\(r.stdout)")
    #expect(result["longitude"] as? Double == 126.978, "\(r.stdout)")
  }

  @Test func aPageIsDeniedThePositionWithoutLocation() throws {
    var desktop = try AppWindowTests.Desktop()
    desktop.env["NBRIDGE_LOCATION"] = "37.5665,126.978"
    let r = try desktop.app(["--deny", "location", "--script", desktop.script("geolocation.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["code"] as? Int == 1, "PERMISSION_DENIED: \(r.stdout)")
    #expect(result["denied"] as? Bool == true, "\(r.stdout)")
    #expect(result["latitude"] == nil, "\(r.stdout)")
  }

  @Test func aPageAndNBridgeLocationGetTheSamePosition() throws {
    var desktop = try AppWindowTests.Desktop()
    desktop.env["NBRIDGE_LOCATION"] = "37.5665,126.978,12"
    let r = try desktop.app(["--script", desktop.script("geolocation-agree.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["page"] as? [Double] == [1.5, 2.5, 12], "\(r.stdout)")
    #expect(result["bridge"] as? [Double] == [1.5, 2.5, 12], "\(r.stdout)")
  }
}
