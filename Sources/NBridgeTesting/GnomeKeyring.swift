import Foundation

/// `gnome-keyring-daemon` as the Secret Service of a test's private session bus, with a fresh
/// keyring in a home of its own: its `login` keyring is made with `password` and unlocked
/// (`--unlock` reads the password from stdin), and becomes the default. Stopped by its PID.
public final class GnomeKeyring: @unchecked Sendable {
  /// The object path of the keyring the daemon makes and unlocks.
  public static let loginCollection = "/org/freedesktop/secrets/collection/login"

  private let child: ChildProcess
  private let home: TemporaryDirectory
  private let environment: [String: String?]

  /// Starts the daemon on `bus` and waits until it owns `org.freedesktop.secrets` with its keyring unlocked.
  public init(bus: SessionBus, password: String = "nbridge-test-password") throws {
    home = try TemporaryDirectory(prefix: "nbridge-keyring")
    let runtime = home.file("runtime")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    chmod(runtime, 0o700)
    environment = bus.environment.merging([
      "HOME": home.path, "XDG_DATA_HOME": home.file("data"), "XDG_CONFIG_HOME": home.file("config"),
      "XDG_RUNTIME_DIR": runtime,
    ]) { $1 }
    child = try ChildProcess(
      "gnome-keyring-daemon", ["--foreground", "--components=secrets", "--unlock"], environment: environment,
      stdin: password)
    let deadline = Date().addingTimeInterval(15)
    // NameHasOwner first: dbus-send to a name nobody owns yet would have the bus start another
    // daemon through D-Bus activation, and ours would then find "another secret service".
    while !bus.hasOwner("org.freedesktop.secrets") || (try? isLocked()) != false {
      guard child.isRunning, Date() < deadline else {
        child.stop()
        throw ChildProcessError.notReady("gnome-keyring-daemon: \(child.stderr)")
      }
      usleep(20_000)
    }
  }

  /// The PID started.
  public var pid: Int32 { child.pid }

  /// Whether the login keyring is locked (its `Locked` property, read with `dbus-send`).
  public func isLocked() throws -> Bool {
    let reply = try send(
      Self.loginCollection, "org.freedesktop.DBus.Properties.Get", "string:org.freedesktop.Secret.Collection",
      "string:Locked")
    return reply.contains("true")
  }

  /// Locks the login keyring (`Service.Lock`, which never prompts), as the desktop does on a screen lock.
  public func lock() throws {
    _ = try send(
      "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock", "array:objpath:\(Self.loginCollection)")
  }

  /// The object paths of the items whose attributes include `attributes` (`Service.SearchItems`),
  /// unlocked and locked together.
  public func items(_ attributes: [String: String]) throws -> [String] {
    let dict = attributes.sorted { $0.key < $1.key }.map { "\($0.key),\($0.value)" }.joined(separator: ",")
    let reply = try send(
      "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.SearchItems", "dict:string:string:\(dict)")
    return reply.split(whereSeparator: \.isWhitespace).map(String.init).filter {
      $0.hasPrefix("/org/freedesktop/secrets/collection/")
    }
  }

  private func send(_ path: String, _ method: String, _ arguments: String...) throws -> String {
    let result = try ChildProcess.run(
      "dbus-send",
      ["--session", "--print-reply=literal", "--dest=org.freedesktop.secrets", path, method] + arguments,
      environment: environment, timeout: 10)
    guard result.status == 0 else { throw ChildProcessError.notReady("dbus-send \(method): \(result.stderr)") }
    return result.stdout
  }

  /// Stops the daemon (also done on release).
  public func stop() { child.stop() }

  deinit { child.stop() }
}
