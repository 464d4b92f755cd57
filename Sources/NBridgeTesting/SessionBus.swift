import Foundation

/// A private D-Bus session bus (`dbus-daemon --session --nofork`), started by a test and
/// stopped by its PID; nothing on the user's own bus is touched.
public final class SessionBus: @unchecked Sendable {
  /// The `DBUS_SESSION_BUS_ADDRESS` value.
  public let address: String
  private let child: ChildProcess

  /// Starts the daemon and waits for it to print its address.
  public init() throws {
    child = try ChildProcess("dbus-daemon", ["--session", "--nofork", "--nopidfile", "--print-address=1"])
    let deadline = Date().addingTimeInterval(10)
    while !child.stdout.contains("\n") {
      guard child.isRunning, Date() < deadline else {
        child.stop()
        throw ChildProcessError.notReady("dbus-daemon: \(child.stderr)")
      }
      usleep(10_000)
    }
    address = child.stdout.split(separator: "\n").first.map(String.init) ?? ""
  }

  /// The PID started.
  public var pid: Int32 { child.pid }

  /// The environment a client of this bus needs.
  public var environment: [String: String?] { ["DBUS_SESSION_BUS_ADDRESS": address] }

  /// Whether `name` has an owner on this bus (asked with `dbus-send`).
  public func hasOwner(_ name: String) -> Bool {
    let result = try? ChildProcess.run(
      "dbus-send",
      [
        "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
      ], environment: environment, timeout: 10)
    return result?.stdout.contains("true") ?? false
  }

  /// Sends `signal` to the daemon (`SIGSTOP` makes a bus that never answers).
  public func signal(_ signal: Int32) { child.signal(signal) }

  /// Stops the daemon (also done on release).
  public func stop() { child.stop() }

  deinit {
    child.signal(SIGCONT)
    child.stop()
  }
}
