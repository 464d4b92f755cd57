import Glibc
import NBridgeAppSetup
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// `nbridge test`: runs every `*.test.js` under the given paths, each in a fresh context with
/// fresh temporary data and shared folders, and prints `ok N - name` lines and `N passed, N failed`.
/// Its options are those of `nbridge test --page` too (NBridgeWindow's `PageTestRunner` runs
/// the same files with them, each in a window).
public struct TestRunner: Sendable {
  /// The plugins the tests can call.
  public var plugins: PluginRegistry
  /// Milliseconds a test may take before it fails.
  public var testTimeout: Double = 5000
  /// Let plugins use the real desktop (clipboard, notification server).
  public var desktop = false
  /// Services added to every file's permissions.
  public var allow: [String] = []
  /// Services removed from them.
  public var deny: [String] = []
  /// The runtime's extensions each test file runs with (the CLI's list).
  package var extensions: [RuntimeExtension] = []

  /// A runner for `plugins`.
  public init(plugins: PluginRegistry) { self.plugins = plugins }

  /// The names of test files: JavaScript, and TypeScript whose types are erased.
  static let testSuffixes = [".test.js", ".test.mjs", ".test.ts", ".test.mts"]

  /// Every `*.test.js`, `*.test.mjs`, `*.test.ts` and `*.test.mts` under `paths` (files are taken as given), sorted.
  public static func discover(_ paths: [String]) -> [String] {
    var found: [String] = []
    for path in paths {
      var st = stat()
      guard stat(path, &st) == 0 else { continue }
      if (st.st_mode & S_IFMT) == S_IFDIR {
        walk(absolutePath(path), into: &found)
      } else {
        found.append(absolutePath(path))
      }
    }
    return found.sorted()
  }

  private static func walk(_ dir: String, into found: inout [String]) {
    for name in Directory.names(dir) ?? [] {
      if name == "node_modules" || name.hasPrefix(".") { continue }
      let path = dir + "/" + name
      var st = stat()
      guard stat(path, &st) == 0 else { continue }
      if (st.st_mode & S_IFMT) == S_IFDIR {
        walk(path, into: &found)
      } else if TestRunner.testSuffixes.contains(where: { name.hasSuffix($0) }) {
        found.append(path)
      }
    }
  }

  /// Runs the files; returns the exit status (1 when any test failed or none was found).
  public func run(paths: [String]) -> Int32 {
    let given = paths.isEmpty ? ["Tests/js"] : paths
    let files = TestRunner.discover(given)
    guard !files.isEmpty else {
      Self.writeLine(2, "nbridge test: no *.test.js, *.test.mjs or *.test.ts files under \(given.joined(separator: ", "))")
      return 1
    }
    var passed = 0
    var failed = 0
    for file in files {
      let (p, f) = runFile(file, firstNumber: passed + failed + 1)
      passed += p
      failed += f
    }
    Self.writeLine(1, "\(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
  }

  func runFile(_ file: String, firstNumber: Int) -> (Int, Int) {
    guard let scratch = TemporaryFolder.make() else {
      Self.writeLine(1, "not ok \(firstNumber) - \(file): cannot make a temporary folder")
      return (0, 1)
    }
    defer { TemporaryFolder.remove(scratch) }
    var configuration: RuntimeConfiguration
    do throws(AppSetup.Problem) { configuration = try self.configuration(for: file, scratch: scratch) } catch {
      Self.writeLine(1, "not ok \(firstNumber) - \(file): \(error.description)")
      return (0, 1)
    }
    guard let source = POSIX.readText(file) else {
      Self.writeLine(1, "not ok \(firstNumber) - \(file): cannot read the file")
      return (0, 1)
    }
    let counts = TestFileRun.Counts()
    let plan = TestFileRun.Plan(prelude: testPreludeSource, file: file, firstNumber: firstNumber, timeoutMs: testTimeout)
    configuration.extensions.append(TestFileRun.runtimeExtension(plan, counts: counts))
    configuration.readableFolder = projectFolder(of: file)
    _ = Runtime.run(configuration, source: source, name: file)
    return counts.value.withLock { ($0.passed, $0.failed) }
  }

  /// The run of test file `file`: fresh data and shared folders under `scratch`, the manifest
  /// beside the file when there is one (its permissions checked against the plugins'), and
  /// these options; the manifest's problem when it cannot be used.
  package func configuration(for file: String, scratch: String) throws(AppSetup.Problem) -> RuntimeConfiguration {
    var configuration = RuntimeConfiguration(
      plugins: plugins, manifest: AppManifest(id: "test", name: "test"),
      dataDirectory: scratch + "/data", sharedDirectory: scratch + "/shared")
    if let manifest = try AppSetup.manifestFile(forEntry: file) {
      let known = RuntimeConfiguration.knownPermissions(plugins)
      try AppSetup.checkPermissions(manifest, known: known, path: AppSetup.manifestPath(forEntry: file))
      configuration.manifest = manifest
    }
    configuration.allow = allow
    configuration.deny = deny
    configuration.headless = !desktop
    configuration.followsSession = false
    configuration.environment = ProcessEnvironment.current
    configuration.extensions = extensions
    return configuration
  }

  /// Writes `text` and a newline to stdout (1) or stderr (2).
  package static func writeLine(_ fd: Int32, _ text: String) {
    try? POSIX.writeAll(fd, Array((text + "\n").utf8), what: fd == 1 ? "stdout" : "stderr")
  }
}
