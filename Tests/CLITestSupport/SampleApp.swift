import Foundation
import NBridgeTesting

/// The repository's sample app (`www/`) and the environment its tests run it in.
package enum SampleApp {
  /// The repository's root folder.
  package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// A headless environment with the sample's data, its control socket and its fetch schedule
  /// in `dir` (no scheduler: nothing outlives the test).
  package static func environment(_ dir: TemporaryDirectory) throws -> [String: String?] {
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["NBRIDGE_SCHEDULER"] = "off"
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(atPath: runtimeDir, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtimeDir)
    env["XDG_RUNTIME_DIR"] = runtimeDir
    return env
  }
}
