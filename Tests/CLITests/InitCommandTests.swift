import Foundation
import NBridgeTesting
import Testing

/// `nbridge init`: the app it makes runs and passes its tests; a folder in use is left alone.
@Suite struct InitCommandTests {
  @Test func anAppScaffoldRunsAndPassesItsOwnTests() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let app = scratch.file("My Notes")
    let environment: [String: String?] = NBridgeBinary.headless.merging([
      "NBRIDGE_DATA_DIR": scratch.file("data"), "NBRIDGE_SHARED_DIR": scratch.file("shared"),
    ]) { $1 }
    let made = try NBridgeBinary.run(["init", app])
    #expect(made.status == 0, "\(made.stderr)")
    #expect(made.stdout.contains("cd '\(app)' && nbridge test"))
    for file in ["www/index.js", "www/greeting.js", "www/nbridge.json", "Tests/js/greeting.test.js", "README.md"] {
      #expect(FileManager.default.fileExists(atPath: app + "/" + file), "\(file)")
    }
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: app + "/www/nbridge.json")))
    #expect((manifest as? [String: Any])?["id"] as? String == "com.example.my-notes")
    #expect((manifest as? [String: Any])?["name"] as? String == "My Notes")

    let run = try NBridgeBinary.run(["run", app + "/www/index.js"], environment: environment)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "Hello from My Notes (launch #1)\n")
    // As `nbridge init` says: `cd APP && nbridge test`; the tests import the app's files from www/.
    let tests = try ChildProcess.run(NBridgeBinary.path, ["test"], environment: environment, directory: app)
    #expect(tests.status == 0, "\(tests.stdout)\(tests.stderr)")
    #expect(tests.stdout.hasSuffix("3 passed, 0 failed\n"))
  }

  @Test func aFolderThatIsNotEmptyIsRefusedWithNothingWritten() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let folder = scratch.file("busy")
    try scratch.write("busy/notes.txt", "mine\n")
    for arguments in [["init", folder], ["init", "--plugin", "Greeter", folder]] {
      let refused = try NBridgeBinary.run(arguments)
      #expect(refused.status == 2)
      #expect(refused.stderr.contains("is not empty"))
      #expect(refused.stderr.contains("--force"))
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["notes.txt"])
    }
    let forced = try NBridgeBinary.run(["init", "--force", folder])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(FileManager.default.fileExists(atPath: folder + "/www/index.js"))
    #expect(try String(contentsOfFile: folder + "/notes.txt", encoding: .utf8) == "mine\n")
  }

  @Test func aPluginPackageNamesNBridgeByVersionOrByPath() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let version = try NBridgeBinary.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)

    let byVersion = try NBridgeBinary.run(["init", "--plugin", "photoTools", scratch.file("photos")])
    #expect(byVersion.status == 0, "\(byVersion.stderr)")
    let package = try String(contentsOfFile: scratch.file("photos/Package.swift"), encoding: .utf8)
    #expect(package.contains(".package(url: \"https://github.com/nbridge/nbridge\", from: \"\(version)\")"))
    #expect(package.contains(".product(name: \"NBridgeCLI\", package: \"nbridge\")"))
    let plugin = try String(contentsOfFile: scratch.file("photos/Sources/PhotoToolsPlugin/PhotoToolsPlugin.swift"), encoding: .utf8)
    #expect(plugin.contains("public final class PhotoToolsPlugin: Plugin"))
    #expect(plugin.contains("service: \"photoTools\""))
    let main = try String(contentsOfFile: scratch.file("photos/Sources/phototools/main.swift"), encoding: .utf8)
    #expect(main.contains("NBridgeCommand.main(plugins: Builtins.plugins + [PhotoToolsPlugin.self])"))
    let manifest = try String(contentsOfFile: scratch.file("photos/www/nbridge.json"), encoding: .utf8)
    #expect(manifest.contains("\"permissions\": [\"app\", \"storage\", \"photoTools\"]"))

    try FileManager.default.createDirectory(atPath: scratch.file("checkout/nbridge"), withIntermediateDirectories: true)
    let byPath = try ChildProcess.run(
      NBridgeBinary.path, ["init", "--plugin", "Greeter", "--nbridge", "checkout/nbridge", "greeter"],
      directory: scratch.path)
    #expect(byPath.status == 0, "\(byPath.stderr)")
    let local = try String(contentsOfFile: scratch.file("greeter/Package.swift"), encoding: .utf8)
    #expect(local.contains(".package(path: \"\(scratch.file("checkout/nbridge"))\")"))
  }

  @Test func aPluginNameMustBeASwiftTypeName() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-init")
    let refused = try NBridgeBinary.run(["init", "--plugin", "my-plugin", scratch.file("x")])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("--plugin must be a Swift type name"))
    #expect(!FileManager.default.fileExists(atPath: scratch.file("x")))
  }
}
