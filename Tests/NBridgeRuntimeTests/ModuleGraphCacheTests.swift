import Foundation
import NBridgePlugin
import NBridgeModules
import NBridgeRuntime
import NBridgeTesting
import Synchronization
import Testing

/// The entry's linked module graph kept in the module cache: a later run with every module
/// unchanged replays it, and prints what a run that loads and links afresh prints.
@Suite struct ModuleGraphCacheTests {
  let dir: TemporaryDirectory

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-graph-cache")
  }

  struct Outcome: Equatable {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// Runs the file `entry` of the test's folder with the module cache in `cache/` (none when `cached` is false).
  func run(_ entry: String, cached: Bool = true, imports: [String: String]? = nil) async throws -> Outcome {
    let scratch = try TemporaryDirectory(prefix: "nbridge-graph-run")
    var configuration = RuntimeConfiguration.forTesting(plugins: [], in: scratch)
    configuration.moduleCacheDirectory = cached ? dir.file("cache") : nil
    configuration.manifest.imports = imports
    let captured = Mutex<(String, String)>(("", ""))
    configuration.output = { fd, text in
      captured.withLock { if fd == 2 { $0.1 += text } else { $0.0 += text } }
    }
    let final = configuration
    let path = dir.file(entry)
    let status: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: Runtime.run(final, file: path)) }
      thread.stackSize = 8 << 20
      thread.start()
    }
    _ = scratch
    let (out, err) = captured.withLock { $0 }
    return Outcome(status: status, stdout: out, stderr: err)
  }

  /// How many runs of `entry` replayed a recorded graph so far.
  func replays(_ entry: String) -> Int {
    let path = dir.file(entry)
    return ModuleLoaderStatistics.replayed.withLock { $0.filter { $0 == path }.count }
  }

  func write(_ files: [String: String]) throws {
    for (name, text) in files { _ = try dir.write(name, text) }
  }

  /// A cycle, a namespace over re-exports (named and star), a default export, live bindings,
  /// top-level await, a dynamic import of a module already in the graph and import.meta.
  let graph = [
    "main.mjs": """
      import { a, bump as bumpA } from './a.mjs';
      import * as ns from './reexport.mjs';
      import greet, { later } from './b.mjs';
      import { waited } from './slow.mjs';
      console.log(a, ns.fromB, ns.star, greet(), waited);
      bumpA();
      console.log(a, ns.b2 ?? 'none', later, Object.keys(ns).join());
      const again = await import('./a.mjs');
      console.log(again.a === a, again.bump === bumpA, import.meta.url.endsWith('/main.mjs'));

      """,
    "a.mjs": "import { b } from './b.mjs';\nexport let a = 1;\nexport function bump() { a += b; }\n",
    "b.mjs": """
      import { a } from './a.mjs';
      export const b = 10;
      export let later = 'unset';
      export default function () { return 'hi ' + typeof a; }
      later = 'set';

      """,
    "reexport.mjs": "export { b as fromB } from './b.mjs';\nexport * from './star.mjs';\n",
    "star.mjs": "export const star = 'S';\n",
    "slow.mjs": "export const waited = await Promise.resolve('W');\n",
  ]

  @Test func aSecondRunReplaysTheGraphAndPrintsWhatALoadAfreshPrints() async throws {
    try write(graph)
    let expected = "1 10 S hi number W\n11 none set fromB,star\ntrue true true\n"
    let first = try await run("main.mjs")
    #expect(first == Outcome(status: 0, stdout: expected, stderr: ""))
    #expect(replays("main.mjs") == 0)

    let second = try await run("main.mjs")
    #expect(second == first)
    #expect(replays("main.mjs") == 1)

    let uncached = try await run("main.mjs", cached: false)
    #expect(uncached == first)
    #expect(replays("main.mjs") == 1)
  }

  @Test func anEditedModuleOrEntryIsLoadedAfreshAndRecordedAgain() async throws {
    try write(graph)
    _ = try await run("main.mjs")
    _ = try await run("main.mjs")
    #expect(replays("main.mjs") == 1)

    // A module deep in the graph: not replayed (the new text is seen), recorded again.
    try write(["star.mjs": "export const star = 'T';\n"])
    let edited = try await run("main.mjs")
    #expect(edited.stdout.hasPrefix("1 10 T hi number W\n"))
    #expect(replays("main.mjs") == 1)
    let again = try await run("main.mjs")
    #expect(again == edited)
    #expect(replays("main.mjs") == 2)

    // The entry itself, now importing one more module.
    try write([
      "main.mjs": "import { star } from './star.mjs';\nimport { extra } from './extra.mjs';\nconsole.log(star, extra);\n",
      "extra.mjs": "export const extra = 'E';\n",
    ])
    let entry = try await run("main.mjs")
    #expect(entry == Outcome(status: 0, stdout: "T E\n", stderr: ""))
    #expect(replays("main.mjs") == 2)
    #expect(try await run("main.mjs") == entry)
    #expect(replays("main.mjs") == 3)
  }

  @Test func anExportNamedLikeAnObjectMethodIsTheModulesOwnBindingWhenReplayed() async throws {
    // The module hands its constants over in a plain object: `valueOf`, a let it changes, is
    // read through its getter, not as the method that object inherits.
    try write([
      "main.mjs": "import { valueOf, bump, k } from './o.mjs';\nbump();\nconsole.log(valueOf, k);\n",
      "o.mjs": "export let valueOf = 1;\nexport const k = 'K';\nexport function bump() { valueOf += 1; }\n",
    ])
    let first = try await run("main.mjs")
    #expect(first == Outcome(status: 0, stdout: "2 K\n", stderr: ""))
    #expect(try await run("main.mjs") == first)
    #expect(replays("main.mjs") == 1)
  }

  @Test func importedConstantsLetsAndDefaultsReadAlikeWhenReplayed() async throws {
    // A replayed importer reads an exported const by value once its module has run: assigning
    // it still throws a TypeError, and a let stays live.
    try write([
      "main.mjs": """
        import { k, live, bump } from './c.mjs';
        import d from './d.mjs';
        let threw = false;
        try { k = 2; } catch (e) { threw = e instanceof TypeError; }
        bump();
        console.log(k, live, d, threw);

        """,
      "c.mjs": "export const k = 1;\nexport let live = 1;\nexport function bump() { live += 1; }\n",
      "d.mjs": "export default 'D' + 1;\n",
    ])
    let first = try await run("main.mjs")
    #expect(first == Outcome(status: 0, stdout: "1 2 D1 true\n", stderr: ""))
    #expect(try await run("main.mjs") == first)
    #expect(replays("main.mjs") == 1)
  }

  @Test func aChangedImportMapIsResolvedAfresh() async throws {
    try write([
      "main.mjs": "import { name } from 'lib';\nconsole.log(name);\n",
      "one.mjs": "export const name = 'one';\n",
      "two.mjs": "export const name = 'two';\n",
    ])
    #expect(try await run("main.mjs", imports: ["lib": "./one.mjs"]).stdout == "one\n")
    #expect(try await run("main.mjs", imports: ["lib": "./one.mjs"]).stdout == "one\n")
    #expect(replays("main.mjs") == 1)
    // No module file changed, only the manifest's map.
    #expect(try await run("main.mjs", imports: ["lib": "./two.mjs"]).stdout == "two\n")
    #expect(replays("main.mjs") == 1)
  }

  @Test func anErrorInAReplayedModuleNamesItsLineAndColumnAsWritten() async throws {
    // Line 7 reads an import (rewritten wider) before the throw: the column is the source's.
    let line7 = "export const y = b + null.x;"
    let column = line7.distance(from: line7.startIndex, to: line7.firstIndex(of: ".")!) + 1
    try write([
      "main.mjs": "import { y } from './err.mjs';\nconsole.log(y);\n",
      "err.mjs": "import { b } from './b.mjs';\n\n\n\n\n\n" + line7 + "\n",
      "b.mjs": "export const b = 1;\n",
    ])
    let first = try await run("main.mjs")
    #expect(first.status == 1)
    #expect(first.stderr.contains(dir.file("err.mjs") + ":7:\(column)\n"))
    let second = try await run("main.mjs")
    #expect(replays("main.mjs") == 1)
    #expect(second == first)
  }

  @Test func bodiesRunAsProgramsOrFunctionsReadAlikeLoadedAfreshOrReplayed() async throws {
    // program.mjs runs as a script's top-level code (a block: its names stay its own);
    // function.mjs (`this` in an arrow, eval) and var.mjs (a top-level var) cannot, and run as functions.
    // Each prints the same whichever way it was loaded, and neither leaks a name.
    try write([
      "main.mjs": """
        import { fromProgram, Shape } from './program.mjs';
        import { fromFunction } from './function.mjs';
        import { fromVar } from './var.mjs';
        console.log(fromProgram, new Shape().area(), fromFunction, fromVar);
        console.log(typeof hidden, typeof counter, typeof next, typeof v, typeof me, typeof counted, typeof Shape);

        """,
      "program.mjs": """
        let hidden = 1;
        const counter = { n: 0 };
        function next() { counter.n += hidden; return counter.n; }
        export class Shape { area() { return this === undefined ? 'no this' : next(); } }
        export const fromProgram = [next(), (function () { return this; })()].join();
        const e = new Error('where');
        console.log(e.stack.includes('/program.mjs:'), String(e.stack.split('\\n').length > 1));
        console.log(String(e).length, (() => e)().message);

        """,
      "var.mjs": "var counted = 3;\nexport const fromVar = counted;\n",
      "function.mjs": """
        var v = 'var';
        const me = () => this;
        export const fromFunction = [v, typeof me(), eval('typeof v')].join();

        """,
    ])
    let expected =
      "true true\n12 where\n1, 2 var,undefined,string 3\nundefined undefined undefined undefined undefined undefined function\n"
    let first = try await run("main.mjs")
    #expect(first == Outcome(status: 0, stdout: expected, stderr: ""))
    let second = try await run("main.mjs")
    #expect(replays("main.mjs") == 1)
    #expect(second == first)
  }

  @Test func functionsAssignedLaterStayLiveAndTheRestAreHandedOverByValue() async throws {
    // lib.mjs runs as a program: fixed, Klass and the default function are handed over when its
    // body ends; later, reassigned and counted are assigned by bump() (after the body has run),
    // so their importers must read them live, as they do count.
    try write([
      "main.mjs": """
        import * as ns from './lib.mjs';
        import def, { fixed, Klass, later, reassigned, counted, count, bump } from './lib.mjs';
        console.log(later(), reassigned(), typeof counted, count, ns.later());
        bump();
        console.log(fixed(), new Klass().k, later(), reassigned(), typeof counted, count, ns.count, ns.later());
        console.log(def.name, ns.default === def, Object.keys(ns).join());

        """,
      "lib.mjs": """
        export function fixed() { return 'fixed'; }
        export class Klass { k = 'K'; }
        export function later() { return 'before'; }
        export function reassigned() { return 'r1'; }
        export function counted() { return 0; }
        export let count = 0;
        export function bump() { count += 1; later = () => 'after'; [reassigned] = [() => 'r2']; counted++; }
        export default function () {}

        """,
    ])
    let expected = """
      before r1 function 0 before
      fixed K after r2 number 1 1 after
      default true Klass,bump,count,counted,default,fixed,later,reassigned

      """
    let first = try await run("main.mjs")
    #expect(first == Outcome(status: 0, stdout: expected, stderr: ""))
    #expect(try await run("main.mjs") == first)
    #expect(replays("main.mjs") == 1)
    #expect(try await run("main.mjs", cached: false) == first)
  }

  @Test func aStackThroughAProgramBodyNamesTheModuleOnly() async throws {
    // An uncaught error thrown by a body run as a program, and one it prints: the frames name
    // the module's file, line and column, never the script wrapper or the loader.
    try write([
      "main.mjs": "import './thrower.mjs';\n",
      "thrower.mjs": "export const x = 1;\nconsole.log(new Error('printed'));\nfunction boom() { null.y; }\nboom();\n",
    ])
    for _ in 0..<2 {
      let r = try await run("main.mjs")
      #expect(r.status == 1)
      #expect(r.stdout.hasPrefix("Error: printed\n    at \(dir.file("thrower.mjs")):2:22\n"))
      #expect(r.stderr.contains("    at boom (\(dir.file("thrower.mjs")):3:23)\n    at \(dir.file("thrower.mjs")):4:5"))
      for text in [r.stdout, r.stderr] {
        #expect(!text.contains("global code"))
        #expect(!text.contains("evaluateModuleBody"))
        #expect(!text.contains("nbridge:modules"))
      }
    }
    #expect(replays("main.mjs") == 1)
  }

  @Test func aGraphWithAJSONOrCommonJSModuleIsNotReplayedAndStillRuns() async throws {
    try write([
      "main.mjs": "import data from './d.json' with { type: 'json' };\nimport c from './c.cjs';\nconsole.log(data.n, c.k);\n",
      "d.json": "{\"n\": 5}\n",
      "c.cjs": "module.exports = { k: 'K' };\n",
    ])
    for _ in 0..<2 { #expect(try await run("main.mjs").stdout == "5 K\n") }
    #expect(replays("main.mjs") == 0)
  }
}
