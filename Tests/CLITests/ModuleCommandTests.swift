import Foundation
import NBridgeTesting
import Testing

/// ES modules through the real binary: `nbridge run` and `nbridge test` with module entries.
@Suite(.onTestThreads) struct ModuleCommandTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-modules")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["XDG_CACHE_HOME"] = dir.file("cache")
    env["NBRIDGE_MODULE_CACHE"] = nil
  }

  func run(_ entry: String, _ files: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
    for (name, text) in files { _ = try dir.write(name, text) }
    return try NBridgeTest.command(["run", dir.file(entry)], environment: env)
  }

  @Test func theIssuesExampleRuns() throws {
    let r = try run(
      "main.js",
      [
        "m.js": "export const x = 41; export default function f() { return x + 1 }\n",
        "main.js": "import f, { x } from \"./m.js\"; console.log(f(), x);\n",
      ])
    #expect(r.status == 0)
    #expect(r.stdout == "42 41\n")
  }

  @Test func aScriptImportsDynamically() throws {
    let r = try run(
      "dyn.js",
      [
        "m.js": "export const x = 41;\n",
        "dyn.js": "const m = await import(\"./m.js\"); console.log(m.x)\n",
      ])
    #expect(r.status == 0)
    #expect(r.stdout == "41\n")
  }

  @Test func aThrowInAnImportedModuleIsReportedWhereItIsWritten() throws {
    let r = try run(
      "main.mjs",
      [
        "helper.mjs": "export const h = () => true;\n",
        // Line 7, column 13 is the `.` of `x.y` (JavaScriptCore's position for the TypeError);
        // the use of the imported `h` before it on that line is rewritten by the loader.
        "thrower.mjs": """
        import { h } from './helper.mjs';
        export function explode() {
          const x = null;


          // line 7 below
          if (h()) x.y;
        }

        """,
        "main.mjs": "import { explode } from './thrower.mjs';\nexplode();\n",
      ])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("Uncaught TypeError: null is not an object (evaluating 'x.y')\n"))
    #expect(r.stderr.contains("    at explode (\(dir.file("thrower.mjs")):7:13)\n"))
    #expect(r.stderr.contains("    at \(dir.file("main.mjs")):2:8"))
    #expect(!r.stderr.contains("nbridge:modules"))
  }

  @Test func aThrowOnTheFirstLineOfAModuleWithoutImportsIsReportedWhereItIsWritten() throws {
    // No import or export: it runs without the loader, inside a wrapper that opens on line 1.
    let r = try run("first.mjs", ["first.mjs": "const x = null; x.y;\n"])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("Uncaught TypeError: null is not an object (evaluating 'x.y')\n"))
    #expect(r.stderr.contains("    at \(dir.file("first.mjs")):1:18"))
    #expect(!r.stderr.contains("global code"))
  }

  @Test func aMissingFileNamesTheImporterAndLine() throws {
    let r = try run("main.mjs", ["main.mjs": "// first\nimport './gone.mjs';\n"])
    #expect(r.status == 1)
    let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.contains("'./gone.mjs'"))
    #expect(first.contains("\(dir.file("main.mjs")):2:8)"))
    // Then the import's place: its line as written, a caret under the specifier.
    #expect(r.stderr.hasSuffix("\n    at \(dir.file("main.mjs")):2\n\n    import './gone.mjs';\n           ^\n"))
  }

  @Test func aMissingExportNamesTheExportAndTheImporter() throws {
    let r = try run(
      "main.mjs",
      ["lib.mjs": "export const a = 1;\n", "main.mjs": "\n\nimport { b } from './lib.mjs';\nconsole.log(b);\n"])
    #expect(r.status == 1)
    let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(
      first.hasPrefix("Uncaught SyntaxError: The requested module './lib.mjs' does not provide an export named 'b'"))
    #expect(first.contains("\(dir.file("main.mjs")):3:10)"))
    #expect(r.stderr.hasSuffix("\n    at \(dir.file("main.mjs")):3\n\n    import { b } from './lib.mjs';\n             ^\n"))
    #expect(!r.stderr.contains("nbridge:modules"))
    #expect(r.stdout.isEmpty)
  }

  @Test func aBareSpecifierWithoutAnImportMapSaysWhereToMapIt() throws {
    let r = try run("main.mjs", ["main.mjs": "import { h } from 'preact';\n"])
    #expect(r.status == 1)
    let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.contains("'preact'") && first.contains("\"imports\"") && first.contains("main.mjs:1:19)"))
    // On a module's first line too, where the rewritten text's columns are shifted most.
    #expect(r.stderr.hasSuffix("\n    at \(dir.file("main.mjs")):1\n\n    import { h } from 'preact';\n                      ^\n"))
  }

  @Test func aHashbangLineIsACommentInModulesCommonJSAndAwaitingScripts() throws {
    let r = try run(
      "main.mjs",
      [
        "main.mjs": "#!/usr/bin/env -S nbridge run\nimport { n } from './lib.mjs';\nimport c from './c.cjs';\nconsole.log(n, c.v);\n",
        "lib.mjs": "#!/usr/bin/env -S nbridge run\nexport const n = 1;\n",
        "c.cjs": "#!/usr/bin/env node\nmodule.exports = { v: 2 };\n",
        "await.js": "#!/usr/bin/env -S nbridge run\nconsole.log(await Promise.resolve(3));\n",
      ])
    #expect(r.stderr == "")
    #expect(r.stdout == "1 2\n")
    let awaiting = try run("await.js", [:])
    #expect(awaiting.stderr == "")
    #expect(awaiting.stdout == "3\n")
  }

  @Test func aFailedImportCallIsReportedWhereItIsCalled() throws {
    let r = try run(
      "main.mjs",
      [
        "main.mjs": "// a module\nconst gone = await import('./gone.mjs');\n",
        "script.js": "function later() {\n  return import('preact');\n}\nlater();\n",
      ])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("Uncaught Error: Cannot find module './gone.mjs'"))
    #expect(r.stderr.hasSuffix(")\n    at \(dir.file("main.mjs")):2:26\n"))
    let script = try run("script.js", [:])
    #expect(script.status == 1)
    #expect(script.stderr.hasPrefix("Uncaught (in promise) TypeError: Cannot resolve the bare specifier 'preact'"))
    #expect(script.stderr.contains("\n    at later (\(dir.file("script.js")):2:10)\n"))
    #expect(!r.stderr.contains("nbridge:modules") && !script.stderr.contains("nbridge:modules"))
  }

  @Test func aSyntaxErrorInTheGraphNamesItsFileAndLineAndTheImporter() throws {
    let r = try run(
      "main.mjs",
      ["bad.mjs": "export const a = 1;\nexport const b = {;\n", "main.mjs": "import { a } from './bad.mjs';\n"])
    #expect(r.status == 1)
    #expect(r.stderr.hasPrefix("Uncaught SyntaxError: "))
    #expect(r.stderr.contains("imported at \(dir.file("main.mjs")):1:"))
    #expect(r.stderr.contains("at \(dir.file("bad.mjs")):2"))
    #expect(r.stderr.contains("export const b = {;"))
  }

  @Test func theManifestsTypeMakesEveryJSFileAModule() throws {
    let r = try run(
      "app/index.js",
      [
        "app/nbridge.json": #"{"id": "com.example.modules", "type": "module"}"#,
        "app/index.js": "console.log(this === undefined, typeof require);\n",
      ])
    #expect(r.status == 0)
    #expect(r.stdout == "true function\n")
  }

  @Test func aBadImportMapIsAUsageErrorNamingTheField() throws {
    let r = try run(
      "map/index.js",
      [
        "map/nbridge.json": #"{"id": "com.example.map", "imports": {"preact": "vendor/preact.mjs"}}"#,
        "map/index.js": "console.log('never')\n",
      ])
    #expect(r.status == 2)
    #expect(r.stderr.contains("imports[\"preact\"]"))
    #expect(r.stdout.isEmpty)
  }

  @Test func nbridgeTestRunsModuleTestFiles() throws {
    _ = try dir.write("t/lib.mjs", "export let n = 0; export const bump = () => { n += 1; };\n")
    _ = try dir.write(
      "t/live.test.mjs",
      "import { n, bump } from './lib.mjs';\nawait 0;\ntest('live', () => { bump(); assert.equal(n, 1); });\n")
    let r = try NBridgeTest.command(["test", dir.file("t")], environment: env)
    #expect(r.status == 0)
    #expect(r.stdout == "ok 1 - live\n1 passed, 0 failed\n")
  }

  // MARK: The module cache

  /// The one cache file under `$XDG_CACHE_HOME/nbridge/modules`, with its inode (a rewrite replaces it).
  func cacheFile() throws -> (path: String, inode: UInt64, bytes: Data)? {
    let folder = dir.file("cache/nbridge/modules")
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder), names.count == 1 else { return nil }
    let path = folder + "/" + names[0]
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return (path, UInt64(info.st_ino), try Data(contentsOf: URL(fileURLWithPath: path)))
  }

  @Test func aSecondRunComesFromTheCacheAndAnEditIsSeenEvenWithTheSameSizeAndTime() throws {
    let files = [
      "lib.mjs": "export const value = 41;\n",
      "main.mjs": "import { value } from './lib.mjs';\nconsole.log(value);\n",
    ]
    let first = try run("main.mjs", files)
    #expect(first.stdout == "41\n")
    let written = try #require(try cacheFile())
    #expect(written.bytes.starts(with: Array("nbridge module cache".utf8)))

    // Nothing changed: every module is valid, so the run leaves the file as it was.
    let second = try NBridgeTest.command(["run", dir.file("main.mjs")], environment: env)
    #expect(second.stdout == "41\n")
    #expect(try cacheFile()?.inode == written.inode)

    // Rewritten in place (the same inode), the same size, and the exact old modification time
    // put back: only the change time differs.
    let lib = dir.file("lib.mjs")
    var before = stat()
    #expect(stat(lib, &before) == 0)
    let fd = open(lib, O_WRONLY | O_TRUNC)
    #expect(fd >= 0)
    let text = Array("export const value = 42;\n".utf8)
    #expect(write(fd, text, text.count) == text.count)
    close(fd)
    var times = [before.st_atim, before.st_mtim]
    #expect(utimensat(AT_FDCWD, lib, &times, 0) == 0)
    var after = stat()
    #expect(stat(lib, &after) == 0)
    #expect(after.st_ino == before.st_ino && after.st_size == before.st_size)
    #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
    let third = try NBridgeTest.command(["run", dir.file("main.mjs")], environment: env)
    #expect(third.stdout == "42\n")
    #expect(try cacheFile()?.inode != written.inode)
  }

  @Test func aDamagedCacheFileIsIgnoredAndReplaced() throws {
    let files = ["lib.mjs": "export default 'fine';\n", "main.mjs": "import v from './lib.mjs';\nconsole.log(v);\n"]
    _ = try run("main.mjs", files)
    let written = try #require(try cacheFile())
    // Cut in the middle of a record: the file no longer parses.
    try written.bytes.prefix(written.bytes.count / 2).write(to: URL(fileURLWithPath: written.path))
    let r = try NBridgeTest.command(["run", dir.file("main.mjs")], environment: env)
    #expect(r.status == 0)
    #expect(r.stdout == "fine\n")
    #expect(try cacheFile()?.bytes == written.bytes)
  }

  @Test func theCacheCanBeTurnedOff() throws {
    var off = env
    off["NBRIDGE_MODULE_CACHE"] = "off"
    for (name, text) in [
      "lib.mjs": "export const a = 1;\n", "main.mjs": "import { a } from './lib.mjs';\nconsole.log(a);\n",
    ] {
      _ = try dir.write(name, text)
    }
    let r = try NBridgeTest.command(["run", dir.file("main.mjs")], environment: off)
    #expect(r.stdout == "1\n")
    #expect(!FileManager.default.fileExists(atPath: dir.file("cache/nbridge")))
  }

  @Test func theCacheFolderKeepsTheFilesWrittenLast() throws {
    let folder = dir.file("cache/nbridge/modules")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for k in 0..<300 {
      let name = folder + "/" + String(format: "%016x", k)
      #expect(FileManager.default.createFile(atPath: name, contents: Data("old".utf8)))
      try FileManager.default.setAttributes(
        [.modificationDate: Date(timeIntervalSince1970: Double(1_000_000 + k))], ofItemAtPath: name)
    }
    let r = try run(
      "main.mjs", ["lib.mjs": "export const a = 1;\n", "main.mjs": "import { a } from './lib.mjs';\nconsole.log(a);\n"])
    #expect(r.stdout == "1\n")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(names.count == 256)
    // The 45 oldest went; the newest old ones and this run's file stayed.
    #expect(!names.contains(String(format: "%016x", 44)))
    #expect(names.contains(String(format: "%016x", 45)))
    #expect(
      names.contains { name in
        (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))?.starts(
          with: Array("nbridge module cache".utf8)) == true
      })
  }
}
