import Foundation
import Synchronization

/// A real X server (`Xvfb`) on a free display number, started by a test and stopped by its PID.
public final class XvfbServer: @unchecked Sendable {
  /// The `DISPLAY` value, such as `:97`.
  public let display: String
  private let child: ChildProcess

  /// Starts `Xvfb` and waits until it accepts connections. Two servers started at once (suites
  /// of one test process run in parallel) take different numbers; a number another server took
  /// meanwhile (Xvfb exits: "server already active") moves on to the next. The first number tried
  /// is random, not the PID's: `make test` runs test processes side by side, each the same PID in
  /// a PID namespace of its own.
  public init() throws {
    var number =
      90 + Int.random(in: 0..<400)
      + XvfbServer.started.withLock { started in
        defer { started += 1 }
        return started * 7
      }
    var attempts = 0
    while true {
      while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
        || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
      {
        number += 1
      }
      let candidate = try ChildProcess(
        // -noreset: a server resets when its last client leaves, and a client connecting then
        // (the next app of a test that runs two in turn) is refused.
        "Xvfb", [":\(number)", "-screen", "0", "640x480x24", "-nolisten", "tcp", "-noreset"])
      // Ours once its socket is there and the display's lock file names its PID: a server another
      // test started on the same number meanwhile has a socket too, and ours then exits.
      let started = waitUntil(timeout: 10) {
        !candidate.isRunning
          || (FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            && Self.lockHolder(number) == candidate.pid)
      }
      if started && candidate.isRunning {
        display = ":\(number)"
        child = candidate
        return
      }
      candidate.stop()
      attempts += 1
      guard attempts < 5 else { throw ChildProcessError.notReady("Xvfb :\(number): \(candidate.stderr)") }
      number += 1
    }
  }

  /// The PID written in display `number`'s lock file (`/tmp/.X<number>-lock`), nil when there is none.
  private static func lockHolder(_ number: Int) -> Int32? {
    guard let text = try? String(contentsOfFile: "/tmp/.X\(number)-lock", encoding: .utf8) else { return nil }
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// How many servers this process started (each start offsets its first number).
  private static let started = Mutex(0)

  /// The PID started.
  public var pid: Int32 { child.pid }

  /// Stops the server (also done on release).
  public func stop() { child.stop() }

  deinit { child.stop() }
}
