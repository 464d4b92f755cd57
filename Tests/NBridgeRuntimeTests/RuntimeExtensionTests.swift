import Foundation
import NBridgeConsole
import NBridgeModuleSyntax
import NBridgeModules
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Synchronization
import Testing

/// The one extension seam: a concern registers a JS file on the `nbridge` object, the native
/// functions it calls, its per-run state and hooks, and the runtime runs them with no field of its own.
@Suite struct RuntimeExtensionTests {
  /// What the counting extension's hooks saw, in order.
  final class Journal: Sendable {
    let events = Mutex<[String]>([])
    func note(_ event: String) { events.withLock { $0.append(event) } }
  }

  /// Per-run state: how many times `nbridge.count()` was called.
  final class Counter {
    var calls = 0
  }

  /// An extension adding `nbridge.count(label)`: its native function counts in the run's state
  /// and answers `{label, calls, step}`, `step` coming from the extension's `values`.
  static func counting(_ journal: Journal) -> RuntimeExtension {
    let script = """
      (function (global, internal) {
        const native = internal.native;
        const step = internal.countStep;
        Object.defineProperty(global.nbridge, 'count', { value: (label) => ({ ...native.count(label), step }) });
      })
      """
    return RuntimeExtension(
      name: "count", state: { _ in Counter() }, nbridgeScripts: [.init(name: "count", source: Array(script.utf8))],
      values: { _ in ["countStep": 2] },
      functions: [
        .init("count") { counter, _, args in
          counter.calls += 1
          return ["label": .string(args.string(0) ?? "?"), "calls": .number(Double(counter.calls))]
        }
      ],
      hooks: .init(
        start: { _, _ in journal.note("start") },
        ready: { _, _ in journal.note("ready") },
        output: { _, _, text, level in journal.note("output \(level.name) \(text)") },
        close: { _, _ in journal.note("close") },
        end: { counter, _ in journal.note("end after \(counter.calls) calls") }))
  }

  /// Text a run wrote, shared with its output callback.
  final class Printed: Sendable {
    let text = Mutex("")
  }

  /// What the last run wrote to stderr.
  let stderr = Printed()

  /// Runs `source` on a thread of its own (the loop thread) with `extensions` after the console's
  /// (unless `console` is false).
  func run(_ source: String, extensions: [RuntimeExtension], console: Bool = true) async throws
    -> (status: Int32, stdout: String)
  {
    let scratch = try TemporaryDirectory(prefix: "nbridge-extension")
    var configuration = RuntimeConfiguration.forTesting(plugins: [], in: scratch)
    configuration.extensions = (console ? [ConsoleExtension.make()] : []) + extensions
    let stdout = Mutex("")
    configuration.output = { [stderr] fd, text in
      if fd == 1 { stdout.withLock { $0 += text } } else { stderr.text.withLock { $0 += text } }
    }
    let final = configuration
    let name = scratch.file("main.js")
    let status: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread { continuation.resume(returning: Runtime.run(final, source: source, name: name)) }
      thread.stackSize = 8 << 20
      thread.start()
    }
    _ = scratch
    return (status, stdout.withLock { $0 })
  }

  /// A script's text is read when it is first asked for, not when the extension is made: a
  /// deferred file that a run never loads is never copied out of the binary's string literal.
  @Test func aScriptsTextIsReadWhenFirstAskedFor() {
    let journal = Journal()
    let script = RuntimeExtension.Script(name: "later", source: { journal.note("read"); return Array("x".utf8) }())
    #expect(journal.events.withLock { $0 }.isEmpty)
    #expect(script.name == "later")
    #expect(script.source == Array("x".utf8))
    #expect(journal.events.withLock { $0 } == ["read"])
  }

  @Test func anExtensionsFileFunctionStateAndHooksRun() async throws {
    let journal = Journal()
    let (status, stdout) = try await run(
      """
      const a = nbridge.count('first');
      const b = nbridge.count('second');
      console.log(JSON.stringify([a, b]));
      """, extensions: [RuntimeExtensionTests.counting(journal)])
    #expect(status == 0)
    let printed = #"[{"label":"first","calls":1,"step":2},{"label":"second","calls":2,"step":2}]"#
    #expect(stdout == printed + "\n")
    // `close` comes before the plugins stop, and again when the runtime is let go.
    #expect(
      journal.events.withLock { $0 } == [
        "start", "ready", "output info \(printed)\n", "close", "end after 2 calls", "close",
      ])
  }

  @Test func eachRunGetsItsOwnState() async throws {
    let journal = Journal()
    let counting = RuntimeExtensionTests.counting(journal)
    for _ in 0..<2 {
      let (_, stdout) = try await run("console.log(nbridge.count('x').calls);", extensions: [counting])
      #expect(stdout == "1\n")
    }
  }

  @Test func withoutTheExtensionItsFunctionIsNotThere() async throws {
    let (status, stdout) = try await run("console.log(typeof nbridge.count === 'function');", extensions: [])
    #expect(status == 0)
    #expect(stdout == "false\n")
  }

  /// The core alone prints nothing for `console` (NBridgeConsole gives it; JavaScriptCore's
  /// own object writes nowhere), and still reports an uncaught error with its message and the
  /// line it was thrown at.
  @Test func withoutTheConsoleExtensionErrorsAreStillReported() async throws {
    let (status, stdout) = try await run("console.log('unseen');\nthrow new Error('boom');", extensions: [], console: false)
    #expect(status == 1)
    #expect(stdout == "")
    let printed = stderr.text.withLock { $0 }
    #expect(printed.hasPrefix("Uncaught Error: boom"), "\(printed)")
    #expect(printed.contains("main.js:2"), "\(printed)")
  }

  /// What the bytes extension keeps for a run: the callback handed to `later`.
  @BridgeActor final class Kept {
    var callback: ExtensionCallback?
  }

  /// An extension with a global file (`globalThis.ext`, set up in the prelude) and a deferred one
  /// (evaluated by name on first use), whose functions read a typed array's bytes in place,
  /// answer with what JSON cannot carry (a lone surrogate, an ArrayBuffer, a thrown Error), and
  /// keep a callback they call later from a timer of the loop.
  static let bytes: RuntimeExtension = {
    let global = """
      (function (global, internal) {
        const native = internal.native;
        global.ext = {
          sum: (view) => native.sum(view),
          rich: () => native.rich(),
          fail: () => native.fail(),
          nothing: () => native.nothing(),
          later: (callback) => native.loadDeferred('later')(global, internal)(callback),
        };
      })
      """
    let deferred = """
      (function (global, internal) {
        return (callback) => internal.native.keep(callback);
      })
      """
    return RuntimeExtension(
      name: "bytes", state: { _ in Kept() }, globalScripts: [.init(name: "ext", source: Array(global.utf8))],
      deferredScripts: [.init(name: "later", source: Array(deferred.utf8))],
      functions: [
        .init("sum") { _, _, args in
          // Each byte is added up, then doubled in place: the caller's array sees the writes.
          let total = args.withBytes(0) { bytes in
            var total = 0
            for i in bytes.indices {
              total += Int(bytes[i])
              bytes[i] &*= 2
            }
            return total
          }
          return total.map { .number(Double($0)) } ?? .null
        },
        .init("rich", result: { _, _, _ in
          .array([.utf16([0xD800, 0x41]), arrayBuffer([1, 2, 3])])
        }),
        .init("fail", result: { _, _, _ in .error("it failed") }),
        .init("nothing", result: { _, _, _ in nil }),
        .init("keep", result: { kept, host, args in
          kept.callback = args.callback(0)
          _ = host.loop.addTimer(delay: .milliseconds(1), interval: nil, keepsAlive: true) {
            kept.callback?.call([.utf16([0x6F, 0x6B]), arrayBuffer([7])])
          }
          return nil
        }),
      ])
  }()

  @Test func anExtensionsGlobalAndDeferredFilesBytesAndRicherAnswers() async throws {
    let (status, stdout) = try await run(
      """
      const view = new Uint8Array([1, 2, 3, 250]);
      console.log(ext.sum(view), view.join(','), ext.sum(new Uint16Array([257]).buffer), ext.sum('no bytes'));
      const [text, buffer] = ext.rich();
      console.log(text.length, text.charCodeAt(0).toString(16), text[1], buffer instanceof ArrayBuffer, new Uint8Array(buffer).join(','));
      try { ext.fail(); } catch (e) { console.log(e instanceof Error, e.message); }
      console.log(ext.nothing() === undefined);
      ext.later((word, bytes) => console.log('later', word, new Uint8Array(bytes)[0]));
      """, extensions: [RuntimeExtensionTests.bytes])
    #expect(status == 0)
    #expect(stdout == "256 2,4,6,244 2 null\n2 d800 A true 1,2,3\ntrue it failed\ntrue\nlater ok 7\n")
  }

  /// What the promising extension keeps: the Promises it answered with, settled from a timer.
  @BridgeActor final class Pending {
    var promises: [ExtensionPromise] = []
  }

  /// An extension whose functions answer with Promises they settle later from the loop: one
  /// resolved with a string JSON cannot carry, one rejected, one resolved with nothing.
  static let promising = RuntimeExtension(
    name: "promising", state: { _ in Pending() },
    globalScripts: [
      .init(name: "ext", source: Array("(function (global, internal) { global.ext = internal.native; })".utf8))
    ],
    functions: [
      .init("later", result: { pending, host, args in
        guard let promise = host.promise() else { return .error("no promise") }
        let outcome = args.string(0) ?? ""
        pending.promises.append(promise)
        _ = host.loop.addTimer(delay: .milliseconds(1), interval: nil, keepsAlive: true) {
          switch outcome {
          case "fail": promise.resolve(.error("it failed"))
          case "nothing": promise.resolve()
          default: promise.resolve(.utf16([0xD800, 0x6F, 0x6B]))
          }
          promise.resolve(.json("settled twice"))  // the first settlement counts
        }
        return .value(promise.value)
      })
    ])

  @Test func aNativeAnswersWithAPromiseItSettlesLater() async throws {
    let (status, stdout) = try await run(
      """
      const text = await ext.later('text');
      console.log(text.length, text.charCodeAt(0).toString(16), text.slice(1));
      try { await ext.later('fail'); } catch (e) { console.log(e instanceof Error, e.message); }
      console.log(await ext.later('nothing'));
      """, extensions: [ModulesExtension.make(), RuntimeExtensionTests.promising])  // top-level await: NBridgeModules'
    #expect(status == 0)
    #expect(stdout == "3 d800 ok\ntrue it failed\nundefined\n")
  }

  /// An extension that takes the entry over: what the entry threw is handed to a global
  /// function of its own instead of being reported, then the run ends with status 3.
  static let takingEntry: RuntimeExtension = {
    var hooks = RuntimeExtension.Hooks<Pending>()
    hooks.entryRan = { _, host, thrown, ready in
      let report = host.property(host.global, "report")
      _ = try? host.call(report, [thrown ?? host.undefined, host.value(.bool(ready != nil))])
      host.exit(3)
    }
    let script = "(function (global) { global.report = (e, ready) => console.log('taken', e?.message, ready); })"
    return RuntimeExtension(
      name: "taker", state: { _ in Pending() }, globalScripts: [.init(name: "taker", source: Array(script.utf8))],
      hooks: hooks)
  }()

  @Test func anExtensionTakesTheEntryOver() async throws {
    let (status, stdout) = try await run(
      "console.log('ran'); setTimeout(() => console.log('not reached'), 0); throw new Error('boom');",
      extensions: [RuntimeExtensionTests.takingEntry])
    #expect(status == 3)
    #expect(stdout == "ran\ntaken boom false\n")
    let (clean, quiet) = try await run("console.log('fine');", extensions: [RuntimeExtensionTests.takingEntry])
    #expect(clean == 3)
    #expect(quiet == "fine\ntaken undefined false\n")
  }

  /// An extension whose global (`bridged`, built on its first read) needs bridge.js's internals:
  /// it builds the `nbridge` object first (`internal.loadBridge()`), as WKBridgeKit's `webkit` does.
  static let bridged: RuntimeExtension = {
    let global = """
      (function (global, internal) {
        internal.lazyGlobals(['bridged'], () => {
          internal.loadBridge();
          return { bridged: { call: (service, action, option) => internal.callBuiltin(service, action, option) } };
        });
      })
      """
    return RuntimeExtension(
      name: "bridged", state: { _ in Kept() }, globalScripts: [.init(name: "bridged", source: Array(global.utf8))])
  }()

  @Test func aGlobalBuildsTheBridgeItNeedsAndTheScriptsOwnNbridgeStays() async throws {
    let (status, stdout) = try await run(
      """
      globalThis.nbridge = { mine: true };
      bridged.call('nope', 'none', {}).catch((e) => console.log(e.code, nbridge.mine));
      """, extensions: [RuntimeExtensionTests.bridged])
    #expect(status == 0)
    #expect(stdout == "invalid_service true\n")
  }

  /// An extension's source transform: the entry as read (`#refuse` is refused at line 2,
  /// column 3), and every script about to run (`SHOUT` becomes `'QUIET'`).
  static let transforming: RuntimeExtension = {
    var hooks = RuntimeExtension.Hooks<Kept>()
    hooks.transformSource = { _, _, stage, source, url throws(ModuleSyntaxError) in
      switch stage {
      case .entry:
        if source.contains("#refuse") { throw ModuleSyntaxError("refused by the transform", line: 2, column: 3) }
        return (source, [])
      case .script, .entryScript:
        return (source.replacing("SHOUT", with: "'QUIET'"), [])
      }
    }
    return RuntimeExtension(name: "transforming", state: { _ in Kept() }, hooks: hooks)
  }()

  @Test func theCoreRunsWhatTheSourceTransformHandsIt() async throws {
    let (status, stdout) = try await run("console.log(SHOUT);", extensions: [RuntimeExtensionTests.transforming])
    #expect(status == 0)
    #expect(stdout == "QUIET\n")
    let (refused, nothing) = try await run(
      "console.log('never');\n  #refuse", extensions: [RuntimeExtensionTests.transforming])
    #expect(refused == 1)
    #expect(nothing == "")
    #expect(stderr.text.withLock { $0 }.contains("SyntaxError: refused by the transform"))
  }
}

/// An `ArrayBuffer` result of `bytes`: memory from `malloc`, which JavaScriptCore takes over.
private func arrayBuffer(_ bytes: [UInt8]) -> ExtensionResult {
  let memory = UnsafeMutableRawBufferPointer(start: malloc(max(bytes.count, 1)), count: bytes.count)
  bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
  return .arrayBuffer(memory)
}
