import Foundation
import NBridgePlugin
import NBridgeTesting

@testable import NBridgePasteboard

/// Runs JavaScript against a real runtime with the pasteboard plugin, sharing `shared`
/// with other runs of a test, as separate apps of one user would.
enum PasteboardHarness {
  /// Evaluates `body` (the body of an async function) and returns what it resolved with.
  /// Headless unless an `environment` with a display is given.
  static func evaluate(
    _ body: String, shared: String, environment: [String: String]? = nil
  ) async throws -> JSONValue {
    try await NBridgeTest.evaluate(body, plugins: [PasteboardPlugin.self]) { configuration in
      configuration.sharedDirectory = shared
      configuration.timeout = .seconds(30)
      if let environment {
        configuration.headless = false
        configuration.environment = environment
      }
    }
  }

  /// The test's environment with `DISPLAY` set and no Wayland.
  static func desktop(display: String) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = display
    environment["WAYLAND_DISPLAY"] = nil
    environment["NBRIDGE_PASTEBOARD_BACKEND"] = nil
    return environment
  }
}

/// The code and message of a script's rejection.
extension ScriptError {
  var summary: String { "\(code ?? "-"): \(message)" }
}
