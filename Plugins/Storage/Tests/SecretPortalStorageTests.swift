import Foundation
import NBridgeTesting
import Testing

/// `{secure: true}` inside a Flatpak sandbox, as the real xdg-desktop-portal sees one (a root
/// with `/.flatpak-info`): the key comes from the Secret portal, backed by the real
/// gnome-keyring on a private session bus, each stopped by its PID.
@Suite(.serialized) struct SecretPortalStorageTests {
  /// Runs `source` with `nbridge run` on the data dir inside the sandbox of `appID`.
  static func runSandboxed(
    _ source: String, appID: String, in dir: TemporaryDirectory, bus: SessionBus, portal: DesktopPortal
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    let script = try dir.write("script-\(UUID().uuidString).js", source)
    let run = portal.sandboxed([NBridgeTest.executable, "run", script], appID: appID)
    let environment = bus.environment.merging(["NBRIDGE_DATA_DIR": dir.file("data")]) { $1 }
      .merging(run.environment) { $1 }
    return try ChildProcess.run(run.program, run.arguments, environment: environment, timeout: 60)
  }

  static let get = SecureStorageTests.outcome("nbridge.storage.get({ key: 'token', secure: true })").replacingOccurrences(
    of: "() => console.log('resolved')", with: "(value) => console.log('resolved ' + JSON.stringify(value))")

  @Test func aSandboxedAppsKeyIsItsOwnSecretFromTheSecretPortal() throws {
    let bus = try SessionBus()
    let keyring = try GnomeKeyring(bus: bus)
    let portal = try DesktopPortal(bus: bus, secret: true)
    let dir = try TemporaryDirectory()
    let stored = try Self.runSandboxed(
      "await nbridge.storage.set({ key: 'token', value: '\(SecureStorageTests.plaintext)', secure: true });"
        + " console.log('stored');", appID: "org.example.Notes", in: dir, bus: bus, portal: portal)
    #expect(stored.stdout == "stored\n", "stdout: \(stored.stdout) stderr: \(stored.stderr)\n\(portal.log)")
    #expect(!SecureStorageTests.databaseBytes(dir).contains(SecureStorageTests.plaintext))
    // The portal's backend keeps one secret for the app, under the app id the sandbox names;
    // nbridge made no key item of its own in the Secret Service.
    #expect(try keyring.items(["app_id": "org.example.Notes"]).count == 1)
    #expect(try keyring.items(["application": "nbridge"]).isEmpty)

    let again = try Self.runSandboxed(Self.get, appID: "org.example.Notes", in: dir, bus: bus, portal: portal)
    #expect(again.stdout == "resolved \"\(SecureStorageTests.plaintext)\"\n", "\(again.stdout) \(again.stderr)")
    // Another sandboxed app given the same file gets another secret: it cannot read the value.
    let other = try Self.runSandboxed(Self.get, appID: "org.example.Other", in: dir, bus: bus, portal: portal)
    #expect(other.stdout.hasPrefix("rejected "), "\(other.stdout) \(other.stderr)")
    #expect(!other.stdout.contains(SecureStorageTests.plaintext))
  }

  @Test func aLockedKeyringBehindThePortalIsUnavailableAndNothingIsStored() throws {
    let bus = try SessionBus()
    let keyring = try GnomeKeyring(bus: bus)
    try keyring.lock()
    let portal = try DesktopPortal(bus: bus, secret: true)
    let dir = try TemporaryDirectory()
    let result = try Self.runSandboxed(
      "await " + SecureStorageTests.outcome(
        "nbridge.storage.set({ key: 'token', value: '\(SecureStorageTests.plaintext)', secure: true })"),
      appID: "org.example.Notes", in: dir, bus: bus, portal: portal)
    #expect(
      result.stdout.hasPrefix("rejected unavailable: storage.set: the Secret portal gave no secret for this app"),
      "stdout: \(result.stdout) stderr: \(result.stderr)")
    #expect(!SecureStorageTests.databaseBytes(dir).contains(SecureStorageTests.plaintext))
  }

  @Test func withoutASecretPortalASandboxedAppIsUnavailableAndTheSecretServiceIsNotUsed() throws {
    let bus = try SessionBus()
    let keyring = try GnomeKeyring(bus: bus)
    let portal = try DesktopPortal(bus: bus, secret: false)
    let dir = try TemporaryDirectory()
    let result = try Self.runSandboxed(
      "await " + SecureStorageTests.outcome(
        "nbridge.storage.set({ key: 'token', value: '\(SecureStorageTests.plaintext)', secure: true })"),
      appID: "org.example.Notes", in: dir, bus: bus, portal: portal)
    #expect(
      result.stdout.hasPrefix(
        "rejected unavailable: storage.set: secure storage in a Flatpak sandbox needs the Secret portal"),
      "stdout: \(result.stdout) stderr: \(result.stderr)")
    #expect(try keyring.items(["application": "nbridge"]).isEmpty)
  }
}
