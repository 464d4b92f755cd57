import Foundation
import NBridgeTesting

/// An app folder (`nbridge.json` with `permissions: ["fs"]`, `index.js`) in a temporary
/// directory, with its own home, data, cache and config folders, run by the real `nbridge`.
struct FilesApp {
  let folder: TemporaryDirectory

  init(manifest: String = #"{"id": "org.example.files", "name": "Files", "permissions": ["fs"]}"#) throws {
    folder = try TemporaryDirectory(prefix: "nbridge-fs")
    try folder.write("app/nbridge.json", manifest)
    for name in ["data/files", "home", "outside"] {
      try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
    }
  }

  /// The app's data folder (`--data-dir`); `$APPDATA` is its `files` folder.
  var data: String { folder.file("data") }
  /// `$APPDATA`: where the scripts' files go.
  var files: String { folder.file("data/files") }
  /// A folder outside every scope.
  var outside: String { folder.file("outside") }

  var environment: [String: String?] {
    NBridgeTest.headless.merging([
      "NBRIDGE_DATA_DIR": data, "NBRIDGE_SHARED_DIR": data, "HOME": folder.file("home"),
      "XDG_CACHE_HOME": folder.file("cache"), "XDG_CONFIG_HOME": folder.file("config"),
    ]) { $1 }
  }

  /// Writes `index.js` (the helper `attempt` prints each call's outcome as one line: its result's
  /// JSON or its error's code and message) and runs it to the end.
  @discardableResult
  func run(_ source: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let script = try write(source)
    return try NBridgeTest.command(["run", script], environment: environment, timeout: 60)
  }

  /// Writes `index.js` and starts it.
  func start(_ source: String) throws -> ChildProcess {
    try NBridgeTest.start(["run", try write(source)], environment: environment)
  }

  private func write(_ source: String) throws -> String {
    try folder.write(
      "app/index.js",
      """
      const fs = nbridge.fs;
      async function attempt(label, promise) {
        try {
          console.log(label + ' ok ' + JSON.stringify(await promise));
        } catch (e) {
          console.log(label + ' ' + e.code + ' ' + e.message);
        }
      }
      \(source)
      """)
  }
}
