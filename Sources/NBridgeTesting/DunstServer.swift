import Foundation

/// The `dunst` notification server on a test's X display and session bus, with its own
/// configuration (notifications never expire on their own), stopped by its PID.
public final class DunstServer: @unchecked Sendable {
  private let child: ChildProcess
  private let config: TemporaryDirectory
  private let environment: [String: String?]

  /// Starts dunst on `display` and `bus`, and waits until it owns `org.freedesktop.Notifications`.
  public init(display: String, bus: SessionBus) throws {
    config = try TemporaryDirectory(prefix: "nbridge-dunst")
    try config.write(
      "dunst/dunstrc",
      """
      [global]
          font = Monospace 8
          idle_threshold = 0
      [urgency_low]
          timeout = 0
      [urgency_normal]
          timeout = 0
      [urgency_critical]
          timeout = 0
      """)
    environment = bus.environment.merging(["DISPLAY": display, "XDG_CONFIG_HOME": config.path]) { $1 }
    child = try ChildProcess("dunst", [], environment: environment)
    let deadline = Date().addingTimeInterval(10)
    while !bus.hasOwner("org.freedesktop.Notifications") {
      guard child.isRunning, Date() < deadline else {
        child.stop()
        throw ChildProcessError.notReady("dunst: \(child.stderr)")
      }
      usleep(20_000)
    }
  }

  /// The PID started.
  public var pid: Int32 { child.pid }

  /// Runs `dunstctl` with `arguments` against this server; its stdout, trimmed.
  @discardableResult
  public func control(_ arguments: [String]) throws -> String {
    let result = try ChildProcess.run("dunstctl", arguments, environment: environment, timeout: 20)
    guard result.status == 0 else {
      throw ChildProcessError.notReady("dunstctl \(arguments.joined(separator: " ")): \(result.stderr)")
    }
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Stops the server (also done on release).
  public func stop() { child.stop() }

  deinit { child.stop() }
}
