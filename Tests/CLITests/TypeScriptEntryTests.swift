import Foundation
import NBridgeTesting
import Testing

/// `nbridge run app.ts`, `nbridge test x.test.ts` and `.ts` modules: types erased, errors at the
/// `.ts` file's own line and column.
@Suite(.onTestThreads) struct TypeScriptEntryTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-ts")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  func run(_ name: String, _ source: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try NBridgeTest.command(["run", try dir.write(name, source)], environment: env)
  }

  @Test func runsATypeScriptScriptAndModule() throws {
    let script = try run("app.ts", "interface P { x: number }\nconst p: P = { x: 40 };\nconsole.log(p.x + (2 as number));\n")
    #expect(script.status == 0)
    #expect(script.stdout == "42\n")
    try dir.write("lib.ts", "export type N = number;\nexport const twice = (n: N): N => n * 2;\n")
    let module = try run("main.mts", "import { twice, type N } from './lib.ts';\nconst n: N = 21;\nconsole.log(twice(n));\n")
    #expect(module.status == 0)
    #expect(module.stdout == "42\n")
    try dir.write("common.cts", "module.exports = (s: string): string => s.toUpperCase();\n")
    let required = try run("req.ts", "const up: (s: string) => string = require('./common.cts');\nconsole.log(up('ok'));\n")
    #expect(required.stdout == "OK\n")
  }

  @Test func aThrownErrorPointsAtTheTypeScriptLineAndColumn() throws {
    // The column of `.` in `n.x` in the file as written (annotations are erased in place).
    let r = try run("app.ts", "type Box<T> = { value: T };\nconst b: Box<number> = { value: 1 }; const n: any = null; n.x;\n")
    #expect(r.status == 1)
    #expect(r.stderr.contains("\(dir.file("app.ts")):2:60)\n"), "\(r.stderr)")
  }

  @Test func aSyntaxErrorPointsAtTheTypeScriptLine() throws {
    let r = try run("app.ts", "interface P { x: number }\nconst p: P = { x: 1 };\nlet broken: number = (;\n")
    #expect(r.status == 1)
    #expect(r.stderr.contains("SyntaxError"))
    #expect(r.stderr.contains("\(dir.file("app.ts")):3"))
    #expect(r.stderr.contains("let broken: number = (;"), "the excerpt is the .ts file's own text")
  }

  @Test func refusesParameterPropertiesWithTheirPlace() throws {
    let r = try run("app.ts", "class A {\n  constructor(private x: number) {}\n}\nconsole.log('ran');\n")
    #expect(r.status == 1)
    #expect(!r.stdout.contains("ran"))
    #expect(r.stderr.contains("Uncaught SyntaxError: TypeScript parameter properties ('private' on a constructor parameter) are not supported"))
    #expect(r.stderr.contains("at \(dir.file("app.ts")):2\n"))
    // The caret under `private` (the excerpt is indented by four spaces).
    #expect(r.stderr.contains("\n      constructor(private x: number) {}\n                  ^\n"))
  }

  @Test func testFilesInTypeScriptAreFoundAndRun() throws {
    try dir.write("a.test.ts", "const sum = (a: number, b: number): number => a + b;\ntest('adds', () => assert.equal(sum(1, 2), 3));\n")
    try dir.write("b.test.mts", "import { strict } from './c.ts';\ntest('imports', () => assert.equal(strict<string>('x'), 'x'));\n")
    try dir.write("c.ts", "export function strict<T>(v: T): T { return v; }\n")
    let r = try NBridgeTest.command(["test", dir.path], environment: env)
    #expect(r.status == 0)
    #expect(r.stdout == "ok 1 - adds\nok 2 - imports\n2 passed, 0 failed\n")
  }

  @Test func anImportedModuleRefusedNamesItsFileAndLine() throws {
    try dir.write("bad.ts", "export const a = 1;\nnamespace N { export const b = 2 }\n")
    let r = try run("main.ts", "import { a } from './bad.ts';\nconsole.log(a);\n")
    #expect(r.status == 1)
    #expect(r.stderr.contains("TypeScript 'namespace' declarations are not supported"))
    #expect(r.stderr.contains("bad.ts:2"))
  }
}
