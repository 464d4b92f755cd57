import Foundation
import NBridgeTesting
import Testing

/// `{secure: true}` as a user runs it: real `nbridge run` processes, a private session bus and
/// `gnome-keyring-daemon` on it as the Secret Service, each stopped by its PID.
@Suite(.serialized) struct SecureStorageTests {
  /// What no byte of the database may hold.
  static let plaintext = "PLAINTEXT-SECRET-7f3a9c"

  /// Runs `source` with `nbridge run` on the data dir, against `bus` (nil: no session bus at all).
  static func run(_ source: String, in dir: TemporaryDirectory, bus: SessionBus?) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let script = try dir.write("script-\(UUID().uuidString).js", source)
    var environment: [String: String?] = ["NBRIDGE_DATA_DIR": dir.file("data"), "DBUS_SESSION_BUS_ADDRESS": nil]
    if let bus { environment.merge(bus.environment) { $1 } }
    return try NBridgeTest.command(["run", script], environment: environment)
  }

  /// Every byte of the database file and its write-ahead log, as Latin-1 text (as `grep -a` reads them).
  static func databaseBytes(_ dir: TemporaryDirectory) -> String {
    ["storage.sqlite", "storage.sqlite-wal"].map { name in
      (FileManager.default.contents(atPath: dir.file("data/\(name)")) ?? Data()).map { Character(Unicode.Scalar($0)) }
    }.map { String($0) }.joined()
  }

  /// A script that prints the code and message of the rejection of `call`, or `resolved`.
  static func outcome(_ call: String) -> String {
    """
    \(call).then(() => console.log('resolved'), (e) => console.log('rejected ' + e.code + ': ' + e.message));
    """
  }

  @Test func aSecureValueRoundTripsAcrossRunsAndNeverReachesTheFileInPlaintext() throws {
    let bus = try SessionBus()
    let keyring = try GnomeKeyring(bus: bus)
    let dir = try TemporaryDirectory()
    let monitor = try ChildProcess("dbus-monitor", ["--address", bus.address])
    defer { monitor.stop() }
    #expect(monitor.waitForOutput("member=NameLost", timeout: 10), "dbus-monitor: \(monitor.stderr)")

    // A writer that stays up after its sets, so its write-ahead log is read while it is in use.
    let script = try dir.write(
      "writer.js",
      """
      await nbridge.storage.set({ key: 'token', value: { secret: '\(Self.plaintext)', n: 1 }, secure: true });
      await nbridge.preference.set({ key: 'pin', value: '\(Self.plaintext)-pin', secure: true });
      await nbridge.storage.set({ key: 'plain', value: 'visible' });
      console.log('stored');
      setTimeout(() => {}, 600000);
      """)
    let writer = try NBridgeTest.start(
      ["run", script], environment: bus.environment.merging(["NBRIDGE_DATA_DIR": dir.file("data")]) { $1 })
    defer { writer.stop() }
    #expect(writer.waitForOutput("stored\n", timeout: 60), "stderr: \(writer.stderr)")
    let whileRunning = Self.databaseBytes(dir)
    #expect(whileRunning.contains("visible"), "the plain value is in the file (the check reads it)")
    #expect(whileRunning.contains("secure_entries"))
    #expect(!whileRunning.contains(Self.plaintext), "a secure value's plaintext is in storage.sqlite or its -wal")
    writer.signal(SIGKILL)
    _ = writer.wait(timeout: 10)
    #expect(!Self.databaseBytes(dir).contains(Self.plaintext))
    #expect(try keyring.items(["application": "nbridge"]).count == 1, "one key item for the app in the keyring")
    // The key crossed the bus in a Diffie-Hellman session (encrypted), never in a plain one.
    #expect(monitor.waitForOutput("string \"dh-ietf1024-sha256-aes128-cbc-pkcs7\"", timeout: 10))
    #expect(monitor.stdout.contains("member=CreateItem"))
    #expect(!monitor.stdout.contains("string \"plain\""))

    // A new run fetches the key again: calls made meanwhile keep their order (the remove,
    // which needs no key, lands after the set that waited for it).
    let reader = try Self.run(
      """
      nbridge.storage.set({ key: 'gone', value: 1, secure: true });
      await nbridge.storage.remove({ key: 'gone', secure: true });
      console.log(JSON.stringify([
        await nbridge.storage.get({ key: 'token', secure: true }),
        await nbridge.preference.get({ key: 'pin', secure: true }),
        await nbridge.storage.get({ key: 'token', defaultValue: 'not plain' }),
        await nbridge.storage.keys({ secure: true }),
        await nbridge.storage.keys(),
        await nbridge.storage.get({ key: 'gone', secure: true, defaultValue: 'removed' }),
      ]));
      """, in: dir, bus: bus)
    #expect(reader.status == 0, "stderr: \(reader.stderr)")
    #expect(
      reader.stdout
        == #"[{"secret":"\#(Self.plaintext)","n":1},"\#(Self.plaintext)-pin","not plain",["pin","token"],["plain"],"removed"]"#
        + "\n")

    // Locked (as a screen lock does): the key's item is there but locked; nothing prompts.
    try keyring.lock()
    let locked = try Self.run(Self.outcome("nbridge.storage.get({ key: 'token', secure: true })"), in: dir, bus: bus)
    #expect(locked.stdout.hasPrefix("rejected unavailable: "), "stdout: \(locked.stdout) stderr: \(locked.stderr)")
    #expect(locked.stdout.contains("locked"))
  }

  @Test func aSecureSetStillWaitingForTheKeyAtAppExitIsCommitted() throws {
    let bus = try SessionBus()
    let keyring = try GnomeKeyring(bus: bus)
    defer { keyring.stop() }
    let dir = try TemporaryDirectory()
    let writer = try Self.run(
      """
      nbridge.storage.set({ key: 'late', value: 'kept', secure: true }).then(() => console.log('acknowledged'));
      nbridge.app.exit();
      """, in: dir, bus: bus)
    #expect(writer.status == 0, "stderr: \(writer.stderr)")
    let reader = try Self.run(
      "console.log(await nbridge.storage.get({ key: 'late', secure: true }));", in: dir, bus: bus)
    #expect(reader.stdout == "kept\n", "stderr: \(reader.stderr)")
  }

  @Test func nbridgeTestUsesTheSecretServiceOfTheBusItIsGiven() throws {
    let bus = try SessionBus()
    let keyring = try GnomeKeyring(bus: bus)
    defer { keyring.stop() }
    let dir = try TemporaryDirectory()
    let file = try dir.write(
      "secure.test.js",
      """
      test('a secure value round-trips', async () => {
        await nbridge.preference.set({ key: 'pin', value: { n: 1 }, secure: true });
        const back = await nbridge.preference.get({ key: 'pin', secure: true });
        if (back?.n !== 1) throw new Error('got ' + JSON.stringify(back));
      });
      """)
    let result = try NBridgeTest.command(
      ["test", file], environment: bus.environment.merging(["NBRIDGE_DATA_DIR": dir.file("data")]) { $1 })
    #expect(result.status == 0, "stdout: \(result.stdout) stderr: \(result.stderr)")
    #expect(result.stdout.contains("1 passed, 0 failed"))
    #expect(try keyring.items(["application": "nbridge"]).count == 1)
  }

  @Test func aLockedKeyringWithNoKeyYetIsUnavailableAndNothingIsStored() throws {
    let bus = try SessionBus()
    let keyring = try GnomeKeyring(bus: bus)
    try keyring.lock()
    let dir = try TemporaryDirectory()
    let result = try Self.run(
      "await " + Self.outcome("nbridge.storage.set({ key: 'token', value: '\(Self.plaintext)', secure: true })")
        + "\nawait nbridge.storage.set({ key: 'plain', value: 1 }); console.log('plain ok');",
      in: dir, bus: bus)
    #expect(result.stdout.hasPrefix("rejected unavailable: "), "stdout: \(result.stdout) stderr: \(result.stderr)")
    #expect(result.stdout.contains("locked"))
    #expect(result.stdout.contains("plain ok"), "plain storage keeps working")
    #expect(!Self.databaseBytes(dir).contains(Self.plaintext))
    #expect(try keyring.items(["application": "nbridge"]).isEmpty, "no key item was made in a locked keyring")
  }

  @Test func noSecretServiceOnTheBusOrNoBusIsUnavailable() throws {
    let bus = try SessionBus()
    let dir = try TemporaryDirectory()
    let call = "nbridge.preference.set({ key: 'pin', value: '\(Self.plaintext)', secure: true })"
    let absent = try Self.run(Self.outcome(call), in: dir, bus: bus)
    #expect(absent.stdout.hasPrefix("rejected unavailable: "), "stdout: \(absent.stdout) stderr: \(absent.stderr)")
    #expect(absent.stdout.contains("org.freedesktop.secrets"))
    #expect(!bus.hasOwner("org.freedesktop.secrets"), "no keyring daemon was started by D-Bus activation")

    let noBus = try Self.run(Self.outcome(call), in: dir, bus: nil)
    #expect(noBus.stdout.hasPrefix("rejected unavailable: "), "stdout: \(noBus.stdout)")
    #expect(noBus.stdout.contains("DBUS_SESSION_BUS_ADDRESS"))
    #expect(!Self.databaseBytes(dir).contains(Self.plaintext))
  }

  @Test func secureMustBeABoolean() throws {
    let dir = try TemporaryDirectory()
    let result = try Self.run(Self.outcome("nbridge.storage.get({ key: 'k', secure: 'yes' })"), in: dir, bus: nil)
    #expect(result.stdout.hasPrefix("rejected invalid_parameter: "), "stdout: \(result.stdout)")
    #expect(result.stdout.contains("\"secure\""))
  }
}
