import Foundation
import NBridgeTesting
import Testing

/// The module loader under hostile or extreme input (issue 31): a long import cycle replayed from
/// the module cache, and files outside the app's folder or that are not regular files.
@Suite(.onTestThreads) struct ModuleHardeningTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-module-hardening")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["XDG_CACHE_HOME"] = dir.file("cache")
    env["NBRIDGE_MODULE_CACHE"] = nil
  }

  /// Writes a cycle of `count` modules into `folder`: `m{i}` imports `v{i+1}` from the next and
  /// exports `v{i}` and `get{i}()`; `main.mjs` prints `v0` and `get0()` (`0 1`).
  func writeCycle(_ count: Int, in folder: String) throws -> String {
    for i in 0..<count {
      let next = (i + 1) % count
      _ = try dir.write(
        "\(folder)/m\(i).mjs",
        "import { v\(next) } from './m\(next).mjs';\nexport const v\(i) = \(i);\nexport function get\(i)() { return v\(next); }\n"
      )
    }
    return try dir.write("\(folder)/main.mjs", "import { get0, v0 } from './m0.mjs';\nconsole.log(v0, get0());\n")
  }

  // Issue 31, finding 3: the replayed graph's functions were held in a Swift array the garbage
  // collector does not scan; a graph big enough to collect while it compiled crashed (SIGSEGV).
  @Test func aCycleOfTwoThousandModulesRunsTheSameFromTheModuleCache() throws {
    let main = try writeCycle(2_000, in: "cycle")
    let first = try NBridgeTest.command(["run", main], environment: env, timeout: 120)
    #expect(first.status == 0)
    #expect(first.stdout == "0 1\n")
    #expect(first.stderr == "")
    let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: dir.file("cache/nbridge/modules"))
    #expect(cacheFiles.count == 1)
    for _ in 0..<2 {
      let cached = try NBridgeTest.command(["run", main], environment: env, timeout: 120)
      #expect(cached.status == 0)
      #expect(cached.stdout == "0 1\n")
      #expect(cached.stderr == "")
    }
    var off = env
    off["NBRIDGE_MODULE_CACHE"] = "off"
    let uncached = try NBridgeTest.command(["run", main], environment: off, timeout: 120)
    #expect(uncached.status == 0)
    #expect(uncached.stdout == "0 1\n")
  }

  // Issue 31, finding 6: the loader read any file (`../`, absolute and `file:` specifiers,
  // symbolic links leading out), and a FIFO or a device; it now has fetch's folder rule.

  /// Writes an app in `app/` and a secret in `outside/`; runs `app/<entry>`.
  func runApp(_ entry: String, _ files: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
    _ = try dir.write("outside/secret.json", "{\"secret\": \"TOPSECRET\"}\n")
    _ = try dir.write("outside/secret.mjs", "export const secret = 'TOPSECRET';\n")
    for (name, text) in files { _ = try dir.write("app/" + name, text) }
    return try NBridgeTest.command(["run", dir.file("app/" + entry)], environment: env, timeout: 30)
  }

  /// A module that tries each import of `specifiers` (a JSON one when it ends in `.json`) and
  /// prints `code | message` for each refusal, or what it loaded.
  func tryingImports(_ specifiers: [String]) -> String {
    var text = "for (const s of \(specifiers)) {\n"
    text += "  const options = s.endsWith('.json') ? { with: { type: 'json' } } : undefined;\n"
    text +=
      "  try { const m = await import(s, options); console.log('loaded', JSON.stringify(m.default ?? m.secret)); }\n"
    text += "  catch (e) { console.log(e.code, '|', e.message); }\n}\n"
    return text
  }

  @Test func importsOutsideTheAppsFolderAreRefusedLikeFetch() throws {
    let outside = dir.file("outside")
    let app = dir.file("app")
    try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: dir.file("app/link.json"), withDestinationPath: "../outside/secret.json")
    let specifiers = [
      "../outside/secret.json", outside + "/secret.json", "file://" + outside + "/secret.mjs", "/etc/passwd",
      "./link.json", "./inside.json",
    ]
    let r = try runApp(
      "main.mjs",
      [
        "inside.json": "{\"inside\": true}\n",
        "main.mjs": tryingImports(specifiers)
          + "const f = await fetch('../outside/secret.json').catch((e) => e.cause.code); console.log('fetch', f);\n",
      ])
    #expect(r.status == 0)
    let refusal = { (path: String) in
      "outside_app_folder | Cannot load \(path): it lies outside the app's folder (\(app)) and the manifest's import map does not name it"
    }
    let expected = [
      refusal(outside + "/secret.json"), refusal(outside + "/secret.json"), refusal(outside + "/secret.mjs"),
      refusal("/etc/passwd"), refusal(app + "/link.json"), "loaded {\"inside\":true}", "fetch outside_app_folder",
    ]
    #expect(r.stdout == expected.joined(separator: "\n") + "\n")
    #expect(!r.stdout.contains("TOPSECRET") && !r.stdout.contains("root"))
  }

  // `nbridge test` run in a project reads the project's files (its tests import the app's code
  // from a sibling folder), and nothing above the folder it runs in.
  @Test func aTestReadsItsProjectFolderButNothingAboveIt() throws {
    _ = try dir.write("outside/secret.mjs", "export const secret = 'TOPSECRET';\n")
    _ = try dir.write("project/www/lib.mjs", "export const answer = 42;\n")
    _ = try dir.write(
      "project/Tests/js/lib.test.mjs",
      """
      import { answer } from '../../www/lib.mjs';
      test('the app code', () => assert.equal(answer, 42));
      test('above the project', async () => {
        await assert.rejects(import('../../../outside/secret.mjs'), 'outside_app_folder');
      });

      """)
    let inProject = try ChildProcess.run(
      NBridgeTest.executable, ["test"], environment: env, directory: dir.file("project"), timeout: 30)
    #expect(inProject.status == 0, "\(inProject.stdout)\(inProject.stderr)")
    #expect(inProject.stdout.hasSuffix("2 passed, 0 failed\n"))
    // Run from elsewhere, the test file's own folder is the rule again.
    let elsewhere = try ChildProcess.run(
      NBridgeTest.executable, ["test", dir.file("project/Tests/js")], environment: env, directory: dir.file("outside"),
      timeout: 30)
    #expect(elsewhere.status == 1)
    #expect(elsewhere.stdout.contains("www/lib.mjs: it lies outside the app's folder"))
    #expect(!elsewhere.stdout.contains("TOPSECRET"))
  }

  @Test func aStaticImportOutsideTheFolderFailsTheRunNamingTheImport() throws {
    let r = try runApp(
      "main.mjs", ["main.mjs": "import data from '/etc/passwd' with { type: 'json' };\nconsole.log(data);\n"])
    #expect(r.status == 1)
    #expect(r.stdout == "")
    #expect(
      r.stderr.hasPrefix(
        "Uncaught Error: Cannot load /etc/passwd: it lies outside the app's folder (\(dir.file("app"))) and the manifest's import map does not name it (imported at \(dir.file("app/main.mjs")):1:18)\n"
      ))
    #expect(!r.stderr.contains("root:"))
  }

  @Test func requireOutsideTheFolderThrowsWithACode() throws {
    let outside = dir.file("outside")
    let r = try runApp(
      "main.js",
      [
        "inside.json": "{\"inside\": 1}\n",
        "main.js": """
        for (const p of [\(jsonString(outside + "/secret.json")), '../outside/secret.json', '/dev/zero', './inside.json']) {
          try { console.log('loaded', JSON.stringify(require(p))); } catch (e) { console.log(e.code, e.message.includes('TOPSECRET')); }
        }

        """,
      ])
    #expect(r.status == 0)
    #expect(
      r.stdout
        == "outside_app_folder false\noutside_app_folder false\noutside_app_folder false\nloaded {\"inside\":1}\n")
  }

  @Test func theImportMapNamesWhatElseMayLoad() throws {
    _ = try dir.write("shared/lib/pad.mjs", "export default (s) => '[' + s + ']';\n")
    _ = try dir.write("shared/other.mjs", "export default 'other';\n")
    let r = try runApp(
      "main.mjs",
      [
        "nbridge.json":
          #"{"id": "dev.nbridge.hardening", "imports": {"lib/": "../shared/lib/", "secret": "../outside/secret.mjs"}}"#,
        "main.mjs": """
        import pad from 'lib/pad.mjs';
        import { secret } from 'secret';
        console.log(pad(secret.length));

        """ + tryingImports(["../shared/other.mjs", "../outside/secret.json"]),
      ])
    #expect(r.status == 0)
    let refusal = { (path: String) in
      "outside_app_folder | Cannot load \(self.dir.file(path)): it lies outside the app's folder (\(self.dir.file("app"))) and the manifest's import map does not name it"
    }
    #expect(r.stdout == "[9]\n" + refusal("shared/other.mjs") + "\n" + refusal("outside/secret.json") + "\n")
  }

  @Test func onlyRegularFilesAreReadAndNoneOverTheLimit() throws {
    let app = dir.file("app")
    try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    #expect(mkfifo(app + "/fifo.mjs", 0o600) == 0)
    // A sparse file: its size is refused before a byte is read.
    #expect(FileManager.default.createFile(atPath: app + "/big.json", contents: nil))
    #expect(truncate(app + "/big.json", 64 << 20 + 1) == 0)
    // A FIFO used to block the run until a writer came: the bound is the run's own timeout.
    let r = try runApp("main.mjs", ["main.mjs": tryingImports(["./fifo.mjs", "./big.json"])])
    #expect(r.status == 0)
    #expect(
      r.stdout == """
        not_regular_file | Cannot load \(app)/fifo.mjs: it is not a regular file
        file_too_large | Cannot load \(app)/big.json: it holds 67108865 bytes, more than the loader's limit of 67108864 (64 MiB)

        """)
  }
}

/// `text` as a JS string literal.
private func jsonString(_ text: String) -> String {
  String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
}
