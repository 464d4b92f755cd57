import Foundation
import NBridgeTesting
import Testing

/// `nbridge.location` inside a Flatpak sandbox, as the real xdg-desktop-portal sees one (a root
/// with `/.flatpak-info`), through the real Location portal to the real GeoClue2 on a private
/// system bus, fed by an NMEA socket; the portal's Access dialog is a stand-in that grants or
/// denies.
@Suite(.serialized)
struct LocationPortalTests {
  static let script = """
    \(GeoClueLocationTests.report)
    (async () => {
      await report('available', nbridge.location.available());
      await report('current', nbridge.location.current({ timeout: 20000 }));
    })();
    """

  /// Runs the app's script with `nbridge run` inside the sandbox, its session bus `bus`.
  static func runSandboxed(_ app: LocationApp, portal: DesktopPortal, bus: SessionBus) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let run = portal.sandboxed([NBridgeTest.executable, "run", app.script], appID: "org.example.maps")
    let environment = app.environment(bus.environment).merging(run.environment) { $1 }
    return try ChildProcess.run(run.program, run.arguments, environment: environment, timeout: 60)
  }

  @Test func availableThenCurrentGoThroughThePortalToGeoClue() throws {
    let system = try GeoClueSystem(position: "48.8566,2.3522")
    let bus = try SessionBus()
    let portal = try DesktopPortal(bus: bus, systemBus: system.address)
    let app = try LocationApp(Self.script)
    let result = try Self.runSandboxed(app, portal: portal, bus: bus)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(#"available {"source":"portal"}"#), "\(result.stdout)\n\(portal.log)")
    let line = try #require(
      result.stdout.split(separator: "\n").first { $0.hasPrefix("current {") }, "\(result.stdout)\n\(portal.log)")
    let fix = try #require(
      try JSONSerialization.jsonObject(with: Data(line.dropFirst("current ".count).utf8)) as? [String: Any])
    #expect(abs((fix["latitude"] as? Double ?? 0) - 48.8566) < 1e-4)
    #expect(abs((fix["longitude"] as? Double ?? 0) - 2.3522) < 1e-4)
    #expect(fix["altitude"] as? Double == 45, "the $GPGGA altitude, passed on by the portal")
    // The portal asked its Access dialog about the app named in /.flatpak-info, once.
    #expect(portal.access.stdout == "ready\nasked org.example.maps\n", "\(portal.access.stdout)")
  }

  @Test func theUserDenyingInThePortalsDialogIsPermissionDenied() throws {
    let system = try GeoClueSystem(position: "48.8566,2.3522")
    let bus = try SessionBus()
    let portal = try DesktopPortal(bus: bus, systemBus: system.address, granted: false)
    let app = try LocationApp(Self.script)
    let result = try Self.runSandboxed(app, portal: portal, bus: bus)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("available permission_denied: location.available: the user refused location access"),
      "\(result.stdout)\n\(portal.log)")
    #expect(result.stdout.contains("current permission_denied:"), "\(result.stdout)")
    #expect(system.inUse == false, "GeoClue started a client for a denied app")
  }
}
