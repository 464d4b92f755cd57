import Foundation

/// openbox on a test's X display, started and stopped by its PID, ready once it owns the screen.
public final class OpenboxWindowManager {
  /// The display it manages (`:N`).
  public let display: String
  private var process: ChildProcess

  /// Starts openbox on `display` and waits (at most `timeout` seconds) until it owns the screen
  /// (`_NET_SUPPORTING_WM_CHECK` on the root window); an openbox that exits before (seen on a
  /// loaded machine, with nothing on stderr) is started again, twice at most.
  public init(display: String, timeout: Double = 40) throws {
    self.display = display
    process = try ChildProcess("openbox", [], environment: ["DISPLAY": display])
    let deadline = Date().addingTimeInterval(timeout)
    var starts = 1
    while !ownsTheScreen() {
      guard Date() < deadline else {
        process.stop()
        throw ChildProcessError.notReady("openbox did not start on \(display)")
      }
      if !process.isRunning {
        guard starts < 3 else {
          throw ChildProcessError.notReady(
            "openbox exited on \(display) (status \(process.status.map(String.init) ?? "?")): \(process.stderr)")
        }
        starts += 1
        process = try ChildProcess("openbox", [], environment: ["DISPLAY": display])
      }
      usleep(50_000)
    }
  }

  deinit { process.stop() }

  /// Stops it (SIGTERM, then SIGKILL) by the PID started.
  public func stop() { process.stop() }

  private func ownsTheScreen() -> Bool {
    let r = try? ChildProcess.run("xprop", ["-display", display, "-root", "_NET_SUPPORTING_WM_CHECK"], timeout: 20)
    return r?.stdout.contains("window id") == true
  }
}
