import NBridgeModuleSyntax
import Testing

/// The rewrite of a module into the loader's function, without a JS context.
@Suite struct ModuleRewriterTests {
  /// The rewritten body between the header line's end and the footer, line by line.
  func lines(_ info: ModuleRecordInfo) -> [Substring] {
    info.source.split(separator: "\n", omittingEmptySubsequences: false)
  }

  @Test func recordsEveryImportForm() throws {
    let info = try ModuleRewriter.rewrite(
      """
      import d from './a.js';
      import * as ns from "./b.js"
      import { x, y as z, "s t" as u, default as e } from './a.js';
      import d2, { w } from './c.js';
      import './side.js';
      import j from './d.json' with { type: 'json' };
      """)
    #expect(info.requests.map(\.specifier) == ["./a.js", "./b.js", "./c.js", "./side.js", "./d.json"])
    #expect(info.requests[4].type == "json")
    #expect(info.requests[1].line == 2)
    let pairs = info.imports.map { "\($0.local)=\($0.name ?? "namespace")@\($0.request)" }
    #expect(pairs == ["d=default@0", "ns=namespace@1", "x=x@0", "z=y@0", "u=s t@0", "e=default@0", "d2=default@2", "w=w@2", "j=default@4"])
  }

  @Test func recordsEveryExportForm() throws {
    let info = try ModuleRewriter.rewrite(
      """
      export const a = 1, { b, c: [d] } = o;
      export function f() {}
      export async function* g() {}
      export class C {}
      let x, y;
      export { x, y as "why" };
      export { k as kk, default as dd } from './m.js';
      export * from './n.js';
      export * as ns from './n.js';
      export default 42;
      """)
    let local = info.exports.compactMap { e in e.localName.map { "\(e.name)=\($0)" } }
    #expect(local == ["a=a", "b=b", "d=d", "f=f", "g=g", "C=C", "x=x", "why=y", "default=\(info.prefix)d"])
    let indirect = info.exports.compactMap { e in e.request.map { "\(e.name)=\(e.importName ?? "namespace")@\($0)" } }
    #expect(indirect == ["kk=k@0", "dd=default@0", "ns=namespace@1"])
    #expect(info.starExports == [1])
  }

  @Test func handsOverExportedConstantsAtTheEnd() throws {
    let info = try ModuleRewriter.rewrite(
      "export const a = 1, { b } = o;\nexport let c = 2;\nconst e = 3;\nexport { e as f };\nexport default 1 + 1;\n")
    let p = info.prefix
    // Constants only (a, b, e and the default expression's local), each once; not the let.
    #expect(info.source.hasSuffix("\n;\(p).const={a,b,e,\(p)d}})"))
    let none = try ModuleRewriter.rewrite("export let c = 2;\nexport var v;\nexport function g() {}\ng = null;\n")
    #expect(none.source.hasSuffix("\n})"))
  }

  @Test func keepsEveryLineAndTheColumnsOfUntouchedLines() throws {
    let source = "import { a } from './a.js';\nconst s = `x${a}`;\n\n      throw new Error(a);\nlet q = 1 / 2 / 3;"
    let info = try ModuleRewriter.rewrite(source)
    let body = lines(info)
    // header on line 1, then the source's lines, then the footer's line
    #expect(body.count == source.split(separator: "\n", omittingEmptySubsequences: false).count + 1)
    #expect(body[4] == "let q = 1 / 2 / 3;")
    #expect(body[3].hasPrefix("      throw new Error("))
    // the uses of `a` read through the import record; the shift is recorded for stack traces
    #expect(body[1].contains("\(info.prefix).a"))
    #expect(info.columnShifts.contains { $0[0] == 4 })
  }

  @Test func leavesShadowingLocalsAlone() throws {
    let info = try ModuleRewriter.rewrite(
      """
      import { x } from './a.js';
      function f(x) { return x; }
      const g = (x) => x + 1;
      const h = x => x;
      { let x = 2; x; }
      try {} catch (x) { x; }
      const o = { x: 1, x() {}, get x() { return 0; } };
      console.log(x, o.x, { x });
      """)
    let body = lines(info)
    let p = info.prefix
    for shadowing in body[1...6] { #expect(!shadowing.contains("\(p).x"), "\(shadowing)") }
    #expect(body[7].contains("(\(p).x, o.x, { x:\(p).x })"))
  }

  @Test func findsTopLevelAwaitOnlyOutsideFunctions() throws {
    #expect(try ModuleRewriter.rewrite("await 1;").hasTopLevelAwait)
    #expect(try ModuleRewriter.rewrite("for await (const x of y) {}").hasTopLevelAwait)
    #expect(try !ModuleRewriter.rewrite("async function f() { await 1 }\nconst g = async () => await 2;").hasTopLevelAwait)
    #expect(try ModuleRewriter.rewrite("const g = async () => 1, v = await 2;").hasTopLevelAwait)
  }

  @Test func rejectsWhatModulesForbid() {
    for source in [
      "import { a } from './a.js'; let a;", "export { nope };", "let a; export { a, a };", "return 1;", "yield 1;",
      "import { a, a } from './a.js';", "<!-- comment", "new.target",
    ] {
      #expect(throws: ModuleSyntaxError.self, "\(source)") { try ModuleRewriter.rewrite(source) }
    }
  }

  @Test func rejectsEscapedKeywordsAndAssigningImportMeta() {
    // A keyword spelled with escapes is no keyword; the rewritten `P.import.meta` could be
    // assigned, so the rewriter reports what JavaScriptCore would not.
    for source in [
      "export d\\u0065fault 0;", "export var a = 0; export {a \\u0061s b};", "import {} \\u0066rom './x.js';",
      "import * \\u0061s ns from './x.js';", "import.m\\u0065ta;", "import.meta = 1;", "import.meta += 1;",
      "import.meta++;", "--import.meta;", "[import.meta] = [];", "[a, ...import.meta] = [];", "({ a: import.meta } = {});",
      "({ ...import.meta } = {});", "[[import.meta]] = [];", "for (import.meta of []);", "for (import.meta in {});",
      "async function f() { for await (import.meta of []); }",
    ] {
      #expect(throws: ModuleSyntaxError.self, "\(source)") { try ModuleRewriter.rewrite(source) }
    }
    for source in [
      "[import.meta.x] = [1];", "({ y: import.meta.y } = {});", "const { url } = import.meta;", "f([import.meta]);",
      "const o = { a: import.meta, ...import.meta };", "for (const k in import.meta);", "'url' in import.meta;",
      "const o = { \\u0061s: 1, d\\u0065fault: 2 };",
    ] {
      #expect(throws: Never.self, "\(source)") { try ModuleRewriter.rewrite(source) }
    }
  }

  @Test func rewritesDynamicImportAndImportMeta() throws {
    let info = try ModuleRewriter.rewrite("const m = import('./x.js');\nconsole.log(import.meta.url);")
    #expect(info.source.contains("= \(info.prefix).import('./x.js')"))
    #expect(info.source.contains("\(info.prefix).import.meta.url"))
    #expect(info.requests.isEmpty)
  }

  @Test func runsAsAProgramOnlyWhenABlockMeansWhatTheFunctionMeant() throws {
    // A body that can run as a script's top-level code, in a block: its declarations stay
    // local to the block, and `this`, `arguments` and `eval` inside ordinary functions are theirs.
    for source in [
      "export const a = 1;\nlet b = 2;\nfunction f() { var v = this; return arguments.length + eval('1'); }",
      "const o = { m() { return this; }, get g() { return arguments; } };\nclass C { m() { return this; } }",
      "function outer() { const inner = () => this; return inner; }",
      "const t = o.this + o.eval; for (let i = 0; i < 2; i++) {}",
    ] {
      #expect(try ModuleRewriter.rewrite(source).runsAsProgram, "\(source)")
    }
    // A top-level `var` would be a global; `this`, `arguments` and `eval` outside ordinary
    // functions (arrows included) would see the script's; a body that awaits is a generator.
    for source in [
      "var a = 1;", "for (var i = 0; i < 2; i++) {}", "if (x) { var y; }", "export var z;",
      "console.log(this);", "const f = () => this;", "const g = (x) => { return arguments[0]; };",
      "eval('1');", "const h = x => eval(x);", "class K { field = this; }", "await 1;",
    ] {
      #expect(try !ModuleRewriter.rewrite(source).runsAsProgram, "\(source)")
    }
  }

  @Test func theProgramFormKeepsEveryColumnOfThePlainForm() throws {
    let source = "import { a } from './a.js';\nexport const b = a + 1;\n  throw new Error(b);"
    let info = try ModuleRewriter.rewrite(source)
    let plain = try #require(info.plainScript)
    let program = try #require(info.programScript)
    let p = info.prefix
    #expect(program.count == plain.count)
    let text = String(decoding: program, as: UTF16.self)
    // b is a constant: handed over at the end, no getter.
    #expect(text.hasPrefix("\"use strict\";{const \(p)=this;      "))
    #expect(text.hasSuffix(";\(p).const={b}} "))
    // Past the head, every line is the plain form's, character for character.
    let programLines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let plainLines = String(decoding: plain, as: UTF16.self).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(programLines.count == plainLines.count)
    #expect(Array(programLines[1..<programLines.count - 1]) == Array(plainLines[1..<plainLines.count - 1]))
    #expect(programLines[0].count == plainLines[0].count)
    // Not for a module that cannot run as one.
    #expect(try ModuleRewriter.rewrite("var v = 1;").programScript == nil)
    #expect(ModuleRecordInfo.programScript(Array("(x)".utf16), headWidth: 20, head: Array("{".utf16)) == nil)
  }

  @Test func handsOverFunctionsAndClassesNothingAssignsAndKeepsGettersForTheRest() throws {
    // Fixed: constants, and functions and classes no code assigns (a shadowing local's
    // assignment is its own). Live: lets, and anything an assignment, ++, a destructuring or a
    // for-of head may write, or any binding at all when eval is written.
    let info = try ModuleRewriter.rewrite(
      """
      export const k = 1;
      export let l = 2;
      export function f(f2) { let g = 0; g = 1; return g; }
      export class C {}
      export function g() {}
      function h() {}
      export { h };
      export function a() {} a = 1;
      export function b() {} b++;
      export function c() {} [c] = [1];
      export function d() {} ({ d } = {});
      export function e() {} for (e of []) {}
      export function s(x) { x = 1; const t = () => { let s = 1; s = 2; }; }
      export default function () {}
      """)
    let p = info.prefix
    #expect(info.source.hasSuffix(";\(p).const={k,f,C,g,h,s,\(p)d}})"))
    #expect(info.programHead.hasSuffix(
      "\(p).export={\"l\":()=>l,\"a\":()=>a,\"b\":()=>b,\"c\":()=>c,\"d\":()=>d,\"e\":()=>e};"))
    // The generator form keeps every getter: a module in a cycle is read before it has run.
    #expect(info.source.hasPrefix("(function*(\(p)){\"use strict\";\(p).export={\"k\":()=>k,\"l\":()=>l,"))

    let evaluated = try ModuleRewriter.rewrite("export function f() {}\nexport class C {}\nfunction g() { eval('f = 1'); }\n")
    #expect(evaluated.source.hasSuffix("\n})"))
    #expect(evaluated.programHead.contains("\"f\":()=>f,\"C\":()=>C"))
  }
}
