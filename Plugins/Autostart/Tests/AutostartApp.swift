import Foundation
import NBridgeTesting

/// An app folder (`nbridge.json`, `index.js`) in a temporary directory whose `config` folder is the
/// runs' `XDG_CONFIG_HOME`, run by the real `nbridge`.
struct AutostartApp {
  let folder: TemporaryDirectory
  let script: String

  init(_ source: String, permissions: String = #"["app", "autostart"]"#, subfolder: String = "app") throws {
    folder = try TemporaryDirectory(prefix: "nbridge-autostart")
    try folder.write(
      "\(subfolder)/nbridge.json",
      #"{"id": "org.example.words", "name": "Words & Meanings", "permissions": \#(permissions)}"#)
    script = try folder.write("\(subfolder)/index.js", source)
    try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
  }

  /// The runs' `XDG_CONFIG_HOME`.
  var config: String { folder.file("config") }
  /// Where the app's autostart entry goes.
  var entryPath: String { config + "/autostart/org.example.words.desktop" }

  var environment: [String: String?] {
    NBridgeTest.headless.merging([
      "NBRIDGE_DATA_DIR": folder.file("data"), "NBRIDGE_SHARED_DIR": folder.file("data"), "XDG_CONFIG_HOME": config,
    ]) { $1 }
  }

  func run() throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(["run", script], environment: environment, timeout: 30)
  }

  /// The entry's `Exec` value, or nil.
  var exec: String? {
    guard let text = try? String(contentsOfFile: entryPath, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").first { $0.hasPrefix("Exec=") }.map { String($0.dropFirst(5)) }
  }

  /// `desktop-file-validate` on the entry: its exit status and output.
  func validate() throws -> (status: Int32, output: String) {
    let result = try ChildProcess.run(ChildProcess.resolve("desktop-file-validate"), [entryPath], timeout: 30)
    return (result.status, result.stdout + result.stderr)
  }
}
