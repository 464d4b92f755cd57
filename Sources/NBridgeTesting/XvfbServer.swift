import Foundation

/// A real X server (`Xvfb`) on a free display number, started by a test and stopped by its PID.
public final class XvfbServer: @unchecked Sendable {
  /// The `DISPLAY` value, such as `:97`.
  public let display: String
  private let child: ChildProcess

  /// Starts `Xvfb` and waits until it accepts connections.
  public init() throws {
    var number = 90 + Int(getpid() % 400)
    while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
      || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
    {
      number += 1
    }
    display = ":\(number)"
    child = try ChildProcess("Xvfb", [display, "-screen", "0", "640x480x24", "-nolisten", "tcp"])
    let deadline = Date().addingTimeInterval(10)
    while !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") {
      guard child.isRunning, Date() < deadline else {
        throw ChildProcessError.notReady("Xvfb \(display): \(child.stderr)")
      }
      usleep(20_000)
    }
  }

  /// The PID started.
  public var pid: Int32 { child.pid }

  /// Stops the server (also done on release).
  public func stop() { child.stop() }

  deinit { child.stop() }
}
