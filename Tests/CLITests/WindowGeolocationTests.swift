import Foundation
import NBridgeTesting
import Testing

/// WebKit's own `navigator.geolocation` in `nbridge app` (Xvfb): its permission request is
/// answered by the app's `location` permission, and `NBRIDGE_LOCATION` gives the position.
@Suite(.serialized) struct WindowGeolocationTests {
  @Test func aPageGetsTheSimulatedPositionWhenTheAppMayUseLocation() throws {
    var desktop = try AppWindowTests.Desktop()
    desktop.env["NBRIDGE_LOCATION"] = "37.5665,126.978"
    let r = try desktop.app(["--script", desktop.script("geolocation.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = AppWindowTests.json(r.stdout)
    #expect(result["latitude"] as? Double == 37.5665, "\(r.stdout)")
    #expect(result["longitude"] as? Double == 126.978, "\(r.stdout)")
  }

  @Test func aPageIsDeniedThePositionWithoutLocation() throws {
    var desktop = try AppWindowTests.Desktop()
    desktop.env["NBRIDGE_LOCATION"] = "37.5665,126.978"
    let r = try desktop.app(["--deny", "location", "--script", desktop.script("geolocation.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = AppWindowTests.json(r.stdout)
    #expect(result["code"] as? Int == 1, "PERMISSION_DENIED: \(r.stdout)")
    #expect(result["denied"] as? Bool == true, "\(r.stdout)")
    #expect(result["latitude"] == nil, "\(r.stdout)")
  }
}
