import Foundation
import NBridgeTesting
import Testing

/// ES modules through the real binary: `nbridge run` and `nbridge test` with module entries.
@Suite struct ModuleCommandTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-modules")
    env = NBridgeBinary.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  func run(_ entry: String, _ files: [String: String]) throws -> (status: Int32, stdout: String, stderr: String) {
    for (name, text) in files { _ = try dir.write(name, text) }
    return try NBridgeBinary.run(["run", dir.file(entry)], environment: env)
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
    #expect(first.contains("\(dir.file("main.mjs")):2:"))
  }

  @Test func aMissingExportNamesTheExportAndTheImporter() throws {
    let r = try run(
      "main.mjs", ["lib.mjs": "export const a = 1;\n", "main.mjs": "\n\nimport { b } from './lib.mjs';\nconsole.log(b);\n"])
    #expect(r.status == 1)
    let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("Uncaught SyntaxError: The requested module './lib.mjs' does not provide an export named 'b'"))
    #expect(first.contains("\(dir.file("main.mjs")):3:"))
    #expect(r.stdout.isEmpty)
  }

  @Test func aBareSpecifierWithoutAnImportMapSaysWhereToMapIt() throws {
    let r = try run("main.mjs", ["main.mjs": "import { h } from 'preact';\n"])
    #expect(r.status == 1)
    let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.contains("'preact'") && first.contains("\"imports\"") && first.contains("main.mjs:1:"))
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
    let r = try NBridgeBinary.run(["test", dir.file("t")], environment: env)
    #expect(r.status == 0)
    #expect(r.stdout == "ok 1 - live\n1 passed, 0 failed\n")
  }
}
