import Foundation
import NBridgeTesting

/// `Fixtures/http_server.py` on 127.0.0.1 and a free port, started for one test and stopped by
/// its PID when the test lets go of it; it reports every request it sees.
final class LocalHTTPServer {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/http_server.py").path

  private let process: ChildProcess
  /// The port it listens on.
  let port: Int

  /// Starts the server (HTTPS with a certificate nobody trusts when `tls`).
  init(tls: Bool = false) throws {
    process = try ChildProcess("python3", [Self.script] + (tls ? ["--tls"] : []))
    guard process.waitForOutput("\n", timeout: 20),
      let line = process.stdout.split(separator: "\n").first, line.hasPrefix("port "),
      let port = Int(line.dropFirst(5))
    else {
      process.stop()
      throw ChildProcessError.notReady("http_server.py: \(process.stderr)")
    }
    self.port = port
  }

  deinit { process.stop() }

  /// `http://127.0.0.1:<port>` (or https).
  func base(tls: Bool = false) -> String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

  /// The requests seen so far, as `METHOD PATH`.
  var requests: [String] {
    process.stdout.split(separator: "\n").filter { $0.hasPrefix("request ") }.map { String($0.dropFirst(8)) }
  }
}
