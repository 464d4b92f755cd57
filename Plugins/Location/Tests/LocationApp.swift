import Foundation
import NBridgeTesting

/// An app folder with a manifest and one script, and its own data and shared dirs.
struct LocationApp {
  let folder: TemporaryDirectory
  let script: String

  init(_ source: String, permissions: String = #"["location"]"#) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-location")
    try folder.write(
      "app/nbridge.json",
      #"{"id": "org.example.maps", "name": "Maps", "version": "1.0", "build": "1", "permissions": \#(permissions)}"#)
    script = try folder.write("app/index.js", source)
    try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: folder.file("shared"), withIntermediateDirectories: true)
  }

  func environment(_ extra: [String: String?]) -> [String: String?] {
    NBridgeTest.headless.merging([
      "NBRIDGE_DATA_DIR": folder.file("data"), "NBRIDGE_SHARED_DIR": folder.file("shared"), "NBRIDGE_LOCATION": nil,
    ]) { $1 }.merging(extra) { $1 }
  }

  /// `nbridge run` to completion.
  func run(_ extra: [String: String?], timeout: Double = 60) throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(["run", script], environment: environment(extra), timeout: timeout)
  }

  /// `nbridge run` in the background.
  func start(_ extra: [String: String?]) throws -> ChildProcess {
    try NBridgeTest.start(["run", script], environment: environment(extra))
  }
}
