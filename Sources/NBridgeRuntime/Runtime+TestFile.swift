import CJavaScriptCore
import Glibc
import NBridgePlugin
import NBridgeSystem

/// A test file's run (`nbridge test`, NBridgeTestRunner): the test framework's prelude evaluated
/// with natives of its own (its output, the tests' end, `simulate`, the tests' time limits),
/// then the file, then the framework's runner.
extension Runtime {
  /// Runs the test file `file` with `configuration` on the calling thread, numbering its tests
  /// from `firstNumber`, each with `timeoutMs` to settle; returns (passed, failed). `prelude` is
  /// the framework: a function of `(global, native, hooks)` returning `run(firstNumber,
  /// timeoutMs, file, setupError, ready)`, where `ready` is a module test file's evaluation.
  package nonisolated static func runTestFile(
    _ configuration: RuntimeConfiguration, file: String, prelude: String, firstNumber: Int, timeoutMs: Double
  ) -> (Int, Int) {
    runOnThisThread { runtime in
      runtime.runTestFile(file, prelude: prelude, firstNumber: firstNumber, timeoutMs: timeoutMs)
    }(configuration)
  }

  /// Evaluates a test file, runs its tests, and returns (passed, failed).
  func runTestFile(_ file: String, prelude: String, firstNumber: Int, timeoutMs: Double) -> (Int, Int) {
    var counts: (Int, Int) = (0, 1)
    testDone = { [unowned self] passed, failed in
      counts = (passed, failed)
      self.requestExit(0)
    }
    guard let source = readTextFile(file) else {
      writeAll(1, "not ok \(firstNumber) - \(file): cannot read the file\n")
      return (0, 1)
    }
    if prepare(entry: file) != nil { return (0, 1) }
    sources[file] = source
    entryDirectory = dirOf(file)
    entryPath = file
    readableFolder = projectFolder(of: file)
    do {
      let factory = try js.evaluate("(" + prelude + ")", url: "nbridge:test")
      guard let factoryFunction = js.object(factory) else { return (0, 1) }
      let runner = Protected(try js.call(factoryFunction, [js.global, testNative(), hooks]), in: js)
      var setupError: JSValueRef = JSValueMakeUndefined(js.ref)
      var ready: JSValueRef = JSValueMakeUndefined(js.ref)
      do {
        let runnable = try runnableSource(source, path: file)
        if isModuleEntry(file, source: runnable) {
          ready = try startModuleTest(file)
        } else {
          try evaluateAllowingTopLevelAwait(runnable, url: file)
        }
      } catch {
        setupError = error.value
      }
      unhandled.removeAll()
      if let run = js.object(runner.value) {
        try js.call(
          run,
          [
            JSValueMakeNumber(js.ref, Double(firstNumber)), JSValueMakeNumber(js.ref, timeoutMs), js.string(file),
            setupError, ready,
          ])
        afterCallback()
      }
    } catch {
      writeAll(
        1, "not ok \(firstNumber) - \(file): \(ErrorReport.describe(error.value, in: self, prefix: "Uncaught"))\n")
      return (0, 1)
    }
    exitCode = nil
    loop.stopRequested = false
    loop.run()
    if exitCode == nil || exitCode == 0 {
      stopPlugins()
    }
    return counts
  }

  /// The native object the test prelude prints through.
  private func testNative() -> JSObjectRef {
    let native = JSObjectMake(js.ref, nil, nil)!
    js.setProperty(native, "print", js.function("print", testPrint))
    js.setProperty(native, "testDone", js.function("testDone", testDoneCallback))
    js.setProperty(native, "simulate", js.function("simulate", testSimulate))
    js.setProperty(native, "testTimer", js.function("testTimer", testTimerCallback))
    js.setProperty(native, "clearTestTimer", js.function("clearTestTimer", clearTestTimerCallback))
    return native
  }

  /// A test's time limit: a native timer that keeps the run alive and, when it fires while the
  /// app is suspended, brings the app back to the foreground so the failure can be reported.
  func addTestTimer(milliseconds: Double, _ function: JSObjectRef) -> Int {
    let held = Protected(function, in: js)
    let hold = loop.hold("test time limit")
    let box = TimerID()
    let id = loop.addTimer(delay: Duration(clampingMilliseconds: milliseconds), interval: nil, keepsAlive: false) {
      [unowned self] in
      self.loop.release(hold)
      self.testTimers[box.id] = nil
      if self.lifecycle.isSuspended { self.deliverMove(to: .active) }
      do { try self.js.call(held.value, []) } catch let error as JSException { self.reportUncaught(error.value) } catch
      {}
      self.afterCallback()
    }
    box.id = id
    testTimers[id] = hold
    return id
  }

  /// Cancels a test's time limit.
  func clearTestTimer(_ id: Int) {
    guard let hold = testTimers.removeValue(forKey: id) else { return }
    loop.cancelTimer(id)
    loop.release(hold)
  }

  /// `simulate(state, {for, then})`: the move at the next turn, and on to `then` after `for` ms;
  /// the returned Promise resolves when JS may hear of it.
  func simulate(_ state: AppState, forMilliseconds: Double?, then next: AppState) -> JSValueRef {
    var resolveFn: JSObjectRef?
    guard let promise = JSObjectMakeDeferredPromise(js.ref, &resolveFn, nil, nil), let resolveFn else {
      return JSValueMakeUndefined(js.ref)
    }
    let resolve = Protected(resolveFn, in: js)
    let hold = loop.hold("simulate")
    let settle: @BridgeActor () -> Void = { [weak self] in
      guard let self else { return }
      self.loop.release(hold)
      self.deliverToJS { [weak self] in
        guard let self else { return }
        self.js.settle(resolve.value, JSValueMakeUndefined(self.js.ref))
        self.afterCallback()
      }
    }
    lifecycle.move(to: state)
    if let forMilliseconds {
      _ = loop.addTimer(delay: Duration(clampingMilliseconds: forMilliseconds), interval: nil, keepsAlive: false) { [unowned self] in
        self.deliverMove(to: next)
        settle()
      }
    } else {
      LoopExecutor.shared.post { BridgeActor.assumeIsolated { settle() } }
    }
    return promise
  }
}

private let testPrint: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, _ in
  let args = NativeArguments(count: argc, values: argv)
  let result = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    writeAll(1, runtime.js.toString(args[1]))
    return NativeResult()
  }
  return result.value
}

private let testDoneCallback: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, _ in
  let args = NativeArguments(count: argc, values: argv)
  _ = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    let passed = Int(saturating: JSValueToNumber(runtime.js.ref, args[0], nil))
    let failed = Int(saturating: JSValueToNumber(runtime.js.ref, args[1], nil))
    runtime.testDone?(passed, failed)
    return NativeResult()
  }
  return nil
}

private let testSimulate: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, _ in
  let args = NativeArguments(count: argc, values: argv)
  let result = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    let state = AppState(rawValue: runtime.js.toString(args[0])) ?? .active
    let ms = JSValueToNumber(runtime.js.ref, args[1], nil)
    let next = AppState(rawValue: runtime.js.toString(args[2])) ?? .active
    return NativeResult(value: runtime.simulate(state, forMilliseconds: ms >= 0 ? ms : nil, then: next))
  }
  return result.value
}

private let testTimerCallback: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, _ in
  let args = NativeArguments(count: argc, values: argv)
  let result = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current, let function = runtime.js.object(args[1]) else { return NativeResult() }
    let ms = JSValueToNumber(runtime.js.ref, args[0], nil)
    let id = runtime.addTestTimer(milliseconds: ms.isFinite ? ms : 0, function)
    return NativeResult(value: JSValueMakeNumber(runtime.js.ref, Double(id)))
  }
  return result.value
}

private let clearTestTimerCallback: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, _ in
  let args = NativeArguments(count: argc, values: argv)
  _ = BridgeActor.assumeIsolated { () -> NativeResult in
    guard let runtime = Runtime.current else { return NativeResult() }
    let id = JSValueToNumber(runtime.js.ref, args[0], nil)
    runtime.clearTestTimer(Int(saturating: id))
    return NativeResult()
  }
  return nil
}

/// The folder `nbridge test` runs in when the test file `file` lies under it (its real path),
/// so a project's tests read its app's files; nil otherwise (the test file's folder is the rule).
func projectFolder(of file: String) -> (lexical: String, folder: PageFolder?)? {
  guard let cwd = realPath("."), cwd != "/", let real = realPath(file), real.hasPrefix(cwd + "/") else { return nil }
  return (cwd, PageFolder(cwd))
}
