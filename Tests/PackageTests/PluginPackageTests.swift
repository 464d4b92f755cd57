import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// A plugin author's path, end to end: `nbridge init --plugin Greeter` makes a package that depends
/// on a tagged clone of this repository by version (`from:`, through a file URL), and that package
/// builds, passes its own Swift and JS tests, and its CLI runs the plugin from JS.
///
/// The clone is of the committed HEAD (what CI checks out). The package builds nbridge once more
/// from scratch; its build time is printed.
@Suite(.serialized) struct PluginPackageTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  @Test func aScaffoldedPluginPackageBuildsAgainstATaggedNBridgeAndPassesItsTests() throws {
    let scratch = try TemporaryDirectory(prefix: "nbridge-package")
    let clone = scratch.file("nbridge")
    let greeter = scratch.file("greeter")
    let environment: [String: String?] = NBridgeTest.headless.merging([
      "NBRIDGE_DATA_DIR": scratch.file("data"), "NBRIDGE_SHARED_DIR": scratch.file("shared"),
    ]) { $1 }

    let version = try NBridgeTest.command(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(version.split(separator: ".").count == 3, "a MAJOR.MINOR.PATCH version, got \(version)")
    try check(ChildProcess.run("git", ["clone", "--quiet", Self.root, clone], timeout: 300), "git clone")
    try check(ChildProcess.run("git", ["-C", clone, "tag", version]), "git tag")

    let made = try NBridgeTest.command(["init", "--plugin", "Greeter", "--nbridge", "file://" + clone, greeter])
    try check(made, "nbridge init --plugin")
    let manifest = try String(contentsOfFile: greeter + "/Package.swift", encoding: .utf8)
    #expect(manifest.contains(".package(url: \"file://\(clone)\", from: \"\(version)\")"))

    // Built once, from scratch: each module whole (one frontend per module, which also writes its
    // interface; -num-threads 1 keeps the object per file SwiftPM links) and without debug
    // information, ~30% less CPU than an incremental debug build, as `make test` builds in CI;
    // the code, the products and what runs are the same.
    // The Swift driver's empty TemporaryDirectory.* folders (one per compiler job) stay in the scratch folder.
    let started = Date()
    let once = [
      "-Xswiftc", "-wmo", "-Xswiftc", "-num-threads", "-Xswiftc", "1", "-Xswiftc", "-no-emit-module-separately-wmo",
      "-debug-info-format", "none",
    ]
    let swiftTemporary: [String: String?] = ["TMPDIR": scratch.file("swift-tmp")]
    try FileManager.default.createDirectory(atPath: scratch.file("swift-tmp"), withIntermediateDirectories: true)
    try check(
      ChildProcess.run(
        "swift", ["build", "--build-tests"] + once, environment: swiftTemporary, directory: greeter, timeout: 3600),
      "swift build")
    print("PluginPackageTests: the scaffolded package built in \(Int(Date().timeIntervalSince(started))) s")

    let swiftTests = try ChildProcess.run(
      "swift", ["test", "--skip-build"], environment: swiftTemporary, directory: greeter, timeout: 600)
    try check(swiftTests, "swift test")
    #expect((swiftTests.stdout + swiftTests.stderr).contains("Test run with 3 tests"))

    let cli = greeter + "/.build/debug/greeter"
    let jsTests = try ChildProcess.run(cli, ["test", "Tests/js"], environment: environment, directory: greeter)
    try check(jsTests, "greeter test")
    #expect(jsTests.stdout.hasSuffix("3 passed, 0 failed\n"))

    let run = try ChildProcess.run(
      cli, ["run", "www/index.js", "--", "Ada"], environment: environment, directory: greeter)
    try check(run, "greeter run")
    #expect(run.stdout == "(greeting #1)\nHello, Ada!\n")

    let types = try ChildProcess.run(cli, ["types"])
    try check(types, "greeter types")
    #expect(types.stdout.contains("  greeter: NBridgeGreeterService;\n"))
    #expect(types.stdout.contains("  hello(options: { name: string }): Promise<{ message: string; count: number }>;\n"))
    #expect(
      types.stdout.contains(
        "  addListener(event: 'greeted', callback: (payload: { name: string; count: number }) => void): NBridgeListenerHandle;\n"
      ))
    // The built-in plugins are there too: the whole CLI, with one more plugin.
    #expect(types.stdout.contains("  storage: NBridgeStorageService;\n"))

    try shipsItsAppWithThePlugin(cli: cli, greeter: greeter, scratch: scratch, environment: environment)
  }

  /// The package's own CLI bundles its app (`greeter bundle www`): the executable in the packages
  /// is that CLI, so the custom plugin ships; it links no Swift library (the template links Swift's
  /// runtime statically, as nbridge does), and the unpacked archive and the installed .deb run the
  /// app, whose call to the plugin answers, with no Swift on PATH or LD_LIBRARY_PATH.
  private func shipsItsAppWithThePlugin(
    cli: String, greeter: String, scratch: TemporaryDirectory, environment: [String: String?]
  ) throws {
    let packages = scratch.file("packages")
    // xz's fastest level for the .deb (dpkg-deb's own setting): the test reads what the package
    // holds and installs it; the default level takes ~17 s of CPU on a debug executable.
    var bundling = environment
    bundling["DPKG_DEB_COMPRESSOR_LEVEL"] = "0"
    let bundled = try ChildProcess.run(
      cli, ["bundle", "www", "--format", "deb,tar", "--out", packages], environment: bundling, directory: greeter,
      timeout: 600)
    try check(bundled, "greeter bundle")
    let names = try FileManager.default.contentsOfDirectory(atPath: packages).sorted()
    #expect(names == ["greeter-0.1.0-x86_64.tar.gz", "greeter_0.1.0_amd64.deb"], "\(names)")
    var bare = environment
    bare["PATH"] = "/usr/bin:/bin"
    bare["LD_LIBRARY_PATH"] = nil

    let unpacked = scratch.file("unpacked")
    try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
    try check(ChildProcess.run("tar", ["-xzf", packages + "/greeter-0.1.0-x86_64.tar.gz", "-C", unpacked]), "tar")
    let command = unpacked + "/greeter-0.1.0/bin/greeter"
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: command)
    let ldd = try ChildProcess.run("ldd", [unpacked + "/greeter-0.1.0/bin/" + executable])
    try check(ldd, "ldd")
    #expect(!ldd.stdout.contains("libswift"), "\(ldd.stdout)")
    let fromArchive = try ChildProcess.run(command, ["Ada"], environment: bare, directory: scratch.path)
    try check(fromArchive, "the unpacked greeter")
    #expect(fromArchive.stdout == "(greeting #1)\nHello, Ada!\n")

    guard getuid() == 0 else { return }  // Installing a .deb needs root (the tests run as root, CI too).
    let apt: [String: String?] = ["DEBIAN_FRONTEND": "noninteractive"]
    defer { DebianPackages.purge("greeter") }
    try check(
      ChildProcess.run(
        "apt-get", ["install", "-y", "-o", "DPkg::Lock::Timeout=120", packages + "/greeter_0.1.0_amd64.deb"],
        environment: apt, timeout: 300), "apt-get install")
    let installed = try ChildProcess.run("/usr/bin/greeter", ["Grace"], environment: bare, directory: scratch.path)
    try check(installed, "the installed greeter")
    #expect(installed.stdout == "(greeting #1)\nHello, Grace!\n")
    try check(
      ChildProcess.run(
        "apt-get", ["remove", "-y", "-o", "DPkg::Lock::Timeout=120", "greeter"], environment: apt, timeout: 300),
      "apt-get remove")
    #expect(!FileManager.default.fileExists(atPath: "/usr/bin/greeter"))
  }

  /// Fails with the command's output when it did not exit 0.
  private func check(_ result: (status: Int32, stdout: String, stderr: String), _ what: String) throws {
    try #require(result.status == 0, "\(what) exited \(result.status):\n\(result.stdout)\n\(result.stderr)")
  }
}
