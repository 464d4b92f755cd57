import Foundation
import NBridgeTesting

/// Python's `http.server` serving a folder on 127.0.0.1 and a port the system picks (or a given
/// one), ready (listening) when made, stopped by its PID when the test lets go of it or calls `stop`.
package final class StaticFileServer {
  private let process: ChildProcess
  /// The port it listens on.
  package let port: Int

  /// Starts it on `directory` (and `port`; 0: one the system picks); throws when it does not say
  /// it listens within 20 s.
  package init(directory: String, port: Int = 0) throws {
    let process = try ChildProcess(
      "python3", ["-u", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", directory])
    self.process = process
    // "Serving HTTP on 127.0.0.1 port N (...)", printed once it listens.
    let listening = #/Serving HTTP on \S+ port (\d+)/#
    var found: Int?
    _ = waitUntil(timeout: 20) {
      found = (try? listening.firstMatch(in: process.stdout)).flatMap { Int($0.output.1) }
      return found != nil || !process.isRunning
    }
    guard let found else {
      process.stop()
      throw ChildProcessError.notReady("http.server: \(process.stderr)")
    }
    self.port = found
  }

  /// What it logged: a line for each request it answered.
  package var log: String { process.stderr }

  /// Stops it (SIGTERM to its PID, then SIGKILL) and waits for it to end.
  package func stop() { process.stop() }

  deinit { process.stop() }
}
