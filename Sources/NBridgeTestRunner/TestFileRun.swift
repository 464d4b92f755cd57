import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import Synchronization

/// A test file's run (`nbridge test`) as an extension of the runtime: the test framework's
/// prelude evaluated once the run is set up, with natives of its own (its output, the tests'
/// end, `simulate`, the tests' time limits); the file run as the run's entry and taken over
/// (`entryRan`): its load error or a module's evaluation handed to the framework's runner.
@BridgeActor
final class TestFileRun {
  /// (passed, failed), read after the run; a run that never reports counts one failure.
  final class Counts: Sendable {
    let value = Mutex((passed: 0, failed: 1))
  }

  /// What the run was made with.
  struct Plan: Sendable {
    /// The framework: a function of `(global, native, hooks)` returning `run(firstNumber,
    /// timeoutMs, file, setupError, ready)`, where `ready` is a module test file's evaluation.
    var prelude: String
    var file: String
    var firstNumber: Int
    var timeoutMs: Double
  }

  private let plan: Plan
  private let counts: Counts
  /// The framework's `run`, made when the run is ready.
  private var runner: ScriptValue?
  /// The tests' time limits: the hold that keeps the run alive → its timer.
  private var timers: [Int: Int] = [:]

  private init(plan: Plan, counts: Counts) {
    self.plan = plan
    self.counts = counts
  }

  /// The extension running `plan`'s file; its counts land in `counts`.
  nonisolated static func runtimeExtension(_ plan: Plan, counts: Counts) -> RuntimeExtension {
    var hooks = RuntimeExtension.Hooks<TestFileRun>(ready: { run, host in run.ready(host) })
    hooks.entryRan = { run, host, thrown, ready in run.start(host, setupError: thrown, ready: ready) }
    return RuntimeExtension(
      name: "test", state: { _ in TestFileRun(plan: plan, counts: counts) },
      functions: [
        .init("testPrint", result: { _, host, args in
          host.write(1, args.string(1) ?? "")
          return nil
        }),
        .init("testDone", result: { run, host, args in
          run.counts.value.withLock { $0 = (Int(saturating: args.number(0)), Int(saturating: args.number(1))) }
          host.exit(0)
          return nil
        }),
        .init("simulate", result: { run, host, args in
          let state = AppState(rawValue: args.string(0) ?? "") ?? .active
          let ms = args.number(1)
          let next = AppState(rawValue: args.string(2) ?? "") ?? .active
          return run.simulate(state, forMilliseconds: ms >= 0 ? ms : nil, then: next, host).map { .value($0.value) }
        }),
        .init("testTimer", result: { run, host, args in
          guard let callback = args.callback(1) else { return nil }
          let ms = args.number(0)
          return .json(.number(Double(run.addTimer(milliseconds: ms.isFinite ? ms : 0, callback, host))))
        }),
        .init("clearTestTimer", result: { run, host, args in
          run.clearTimer(Int(saturating: args.number(0)), host)
          return nil
        }),
      ],
      hooks: hooks)
  }

  /// The run is set up: the framework's prelude made into its runner over the natives above.
  private func ready(_ host: ExtensionHost) {
    do throws(ThrownValue) {
      let factory = try host.evaluate("(" + plan.prelude + ")", url: "nbridge:test")
      guard let native = host.native else { return }
      // The framework's names (a page gives it the same over messages); `print` is console's on `internal.native`.
      let natives = [
        ("print", "testPrint"), ("testDone", "testDone"), ("simulate", "simulate"), ("testTimer", "testTimer"),
        ("clearTestTimer", "clearTestTimer"),
      ].map { ($0.0, host.property(native, $0.1)) }
      let hooks = host.object([("inspect", host.hook("inspect") ?? host.undefined)])
      runner = try host.call(factory, [host.global, host.object(natives), hooks])
    } catch {
      host.reportUncaught(error.value)
    }
  }

  /// The file has run: its tests are run, `setupError` (what it threw) and `ready` (a module's
  /// evaluation) handed to the framework.
  private func start(_ host: ExtensionHost, setupError: ScriptValue?, ready: ScriptValue?) {
    guard let runner else { return }
    let arguments = [
      host.value(.number(Double(plan.firstNumber))), host.value(.number(plan.timeoutMs)), host.string(plan.file),
      setupError ?? host.undefined, ready ?? host.undefined,
    ]
    do throws(ThrownValue) {
      _ = try host.call(runner, arguments)
    } catch {
      host.reportUncaught(error.value)
    }
    host.afterCallback()
  }

  /// A test's time limit: a timer that keeps the run alive and, when it fires while the app is
  /// suspended, brings the app back to the foreground so the failure can be reported. Its id
  /// is the hold's.
  private func addTimer(milliseconds: Double, _ callback: ExtensionCallback, _ host: ExtensionHost) -> Int {
    let loop = host.loop
    let hold = loop.hold("test time limit")
    timers[hold] = loop.addTimer(delay: Duration(clampingMilliseconds: milliseconds), interval: nil, keepsAlive: false) {
      [unowned self] in
      loop.release(hold)
      self.timers[hold] = nil
      if host.lifecycle.isSuspended { host.lifecycle.moveNow(to: .active) }
      callback.call([])
    }
    return hold
  }

  /// Cancels the time limit `id`.
  private func clearTimer(_ id: Int, _ host: ExtensionHost) {
    guard let timer = timers.removeValue(forKey: id) else { return }
    host.loop.cancelTimer(timer)
    host.loop.release(id)
  }

  /// `simulate(state, {for, then})`: the move at the next turn, and on to `then` after `for` ms;
  /// the returned Promise resolves when JS may hear of it.
  private func simulate(_ state: AppState, forMilliseconds: Double?, then next: AppState, _ host: ExtensionHost)
    -> ExtensionPromise?
  {
    guard let promise = host.promise() else { return nil }
    let loop = host.loop
    let hold = loop.hold("simulate")
    let settle: @BridgeActor () -> Void = {
      loop.release(hold)
      promise.resolve()
    }
    host.lifecycle.move(to: state)
    if let forMilliseconds {
      _ = loop.addTimer(delay: Duration(clampingMilliseconds: forMilliseconds), interval: nil, keepsAlive: false) {
        host.lifecycle.moveNow(to: next)
        settle()
      }
    } else {
      LoopExecutor.shared.post { BridgeActor.assumeIsolated { settle() } }
    }
    return promise
  }
}

/// The folder `nbridge test` runs in when the test file `file` lies under it (its real path),
/// so a project's tests read its app's files; nil otherwise (the test file's folder is the rule).
func projectFolder(of file: String) -> String? {
  guard let cwd = realPath("."), cwd != "/", let real = realPath(file), real.hasPrefix(cwd + "/") else { return nil }
  return cwd
}
