import Foundation
import NBridgeCompat
import NBridgeConsole
import NBridgeLifecycle
import NBridgeLog
import NBridgeModules
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeWatchdog
import NBridgeWeb
import Synchronization

/// A runtime a test keeps across steps, from `NBridgeTest.withRuntime`: evaluate JS, move the clock, send
/// events, read the output so far. Its methods run on the runtime's loop.
@BridgeActor
public final class TestRuntime {
  /// The clock the loop reads; time moves only when the test moves it.
  public nonisolated let clock: ManualClock
  private nonisolated let output: CapturedOutput
  private let runtime: Runtime
  private let evaluations: ScopedEvaluations
  private let url: String
  fileprivate var ended = false

  fileprivate init(
    runtime: Runtime, evaluations: ScopedEvaluations, clock: ManualClock, output: CapturedOutput, url: String
  ) {
    self.runtime = runtime
    self.evaluations = evaluations
    self.clock = clock
    self.output = output
    self.url = url
  }

  /// Runs `body` as the body of an async function in the runtime's one JS context (globals a
  /// step sets are there for the next); returns what it resolved with, as `JSON.stringify` sees
  /// it (`undefined` as null), or throws `ScriptError` with what it rejected with. It returns once
  /// the Promise settles: a body that waits on a timer needs `clock.advance` from another task.
  public func evaluate(_ body: String) async throws(ScriptError) -> JSONValue {
    let settled: JSONValue = await withCheckedContinuation { continuation in
      evaluations.evaluate(body, url: url, status: runtime.exitStatus) { continuation.resume(returning: $0) }
    }
    if case .object(let e) = settled["error"] ?? .null {
      throw ScriptError(code: e["code"]?.stringValue, name: e["name"]?.stringValue ?? "Error", message: e["message"]?.stringValue ?? "")
    }
    return settled["value"] ?? .null
  }

  /// Delivers `service`'s `event` with `payload` to its JS listeners, as its plugin would.
  public func emit(service: String, event: String, payload: JSONValue = .null) {
    runtime.emit(service: service, event: event, payload: payload)
  }

  /// The exit status once the run has ended (an uncaught error: 1, `app.exit`, a timeout: 124), else nil.
  public var status: Int32? { runtime.exitStatus }
  /// How many calls started together, in one entry per turn (`Runtime.callsStartedTogether`).
  package var callsStartedTogether: Int { runtime.callsStartedTogether }

  /// What the run has written to stdout so far.
  public nonisolated var stdout: String { output.stdout }
  /// What the run has written to stderr so far.
  public nonisolated var stderr: String { output.stderr }

  fileprivate func end() { ended = true }
}

/// A script's rejection, carried back to Swift.
public struct ScriptError: Error, Sendable, CustomStringConvertible {
  /// The rejection's `code` (nil for errors without one).
  public var code: String?
  /// The rejection's `name` (`NBridgeError`, `TypeError`, `RunEnded` when the run ended first, ...).
  public var name: String
  /// The rejection's `message`, for a bridge error prefixed with `service.action: `.
  public var message: String
  /// `name [code]: message`.
  public var description: String { "\(name)\(code.map { " [\($0)]" } ?? ""): \(message)" }
}

extension NBridgeTest {
  /// Runs `body` with a runtime that lives for its scope (Hummingbird's `app.test(.router) { client in }`
  /// is the model): the run is set up as for a script (globals, plugins that start at launch), then
  /// stays, and ends when `body` returns or throws (plugins stopped, temporary folders removed).
  ///
  /// ```swift
  /// try await NBridgeTest.withRuntime(plugins: [MyPlugin.self]) { rt in
  ///   _ = try await rt.evaluate("globalThis.seen = []; nbridge.my.addListener('tick', (p) => seen.push(p))")
  ///   await rt.clock.advance(by: .seconds(1))
  ///   #expect(try await rt.evaluate("return seen") == [1])
  /// }
  /// ```
  /// The loop reads `clock`, a `ManualClock`, unless `realTime` (for plugins that wait on the outside
  /// world with timers). One runtime runs in a process at a time: a second `withRuntime` waits for the first.
  public static func withRuntime<T: Sendable>(
    plugins: [any Plugin.Type] = [EchoPlugin.self], clock: ManualClock = ManualClock(), realTime: Bool = false,
    configure: @Sendable (inout RuntimeConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestRuntime) async throws -> T
  ) async throws -> T {
    let scratch = try TemporaryDirectory(prefix: "nbridge-runtime")
    var configuration = RuntimeConfiguration.forTesting(plugins: plugins, in: scratch)
    configuration.clock = realTime ? MonotonicClock() : clock
    configure(&configuration)
    let evaluations = ScopedEvaluations()
    configuration.extensions.append(evaluations.makeExtension())
    if let watchdog = Watchdog.makeExtension(configuration) { configuration.extensions.append(watchdog) }
    let output = CapturedOutput()
    configuration.output = { fd, text in output.append(fd, text) }
    let final = configuration
    let url = scratch.file("harness.js")
    let started = OneShot<TestRuntime?>()
    let finished = OneShot<Int32>()
    let scope = ScopeFlag()
    let thread = Thread {
      let status = Runtime.runScope(
        final, entry: url,
        started: { runtime in
          let made = runtime.map {
            TestRuntime(runtime: $0, evaluations: evaluations, clock: clock, output: output, url: url)
          }
          scope.runtime = made
          started.fulfill(made)
        },
        endedEarly: { evaluations.failWaiting(status: scope.runtime?.status ?? 0) },
        ended: { scope.runtime?.ended ?? true })
      finished.fulfill(status)
    }
    thread.stackSize = 8 << 20
    thread.start()
    guard let runtime = await started.value() else {
      let status = await finished.value()
      throw ScriptError(code: nil, name: "RunFailed", message: "the runtime did not start (status \(status)): \(output.stderr)")
    }
    let result: Result<T, any Error>
    do { result = .success(try await body(runtime)) } catch { result = .failure(error) }
    await runtime.end()
    _ = await finished.value()
    _ = scratch
    return try result.get()
  }
}

extension RuntimeConfiguration {
  /// A headless configuration for a test: the app `harness`, folders inside `scratch`, the test
  /// process's environment, the session not followed. The test process then ignores SIGPIPE,
  /// as `nbridge` does: a plugin writing to a peer that went away (an X server a test stops)
  /// gets an error instead of ending the whole test run.
  public static func forTesting(plugins: [any Plugin.Type], in scratch: TemporaryDirectory) -> RuntimeConfiguration {
    Signals.ignore(SIGPIPE)
    var configuration = RuntimeConfiguration(
      plugins: PluginRegistry(plugins), manifest: AppManifest(id: "harness", name: "harness"),
      dataDirectory: scratch.file("data"), sharedDirectory: scratch.file("shared"))
    configuration.headless = true
    configuration.followsSession = false
    configuration.environment = ProcessInfo.processInfo.environment
    configuration.extensions = [
      ConsoleExtension.make(), LifecycleExtension.make(), WebExtension.make(), LogExtension.make(), ModulesExtension.make(),
      CompatExtension.make(),
    ]
    return configuration
  }
}

/// What a run wrote to stdout and stderr so far.
final class CapturedOutput: Sendable {
  private let text = Mutex<(stdout: String, stderr: String)>(("", ""))
  func append(_ fd: Int32, _ line: String) { text.withLock { if fd == 2 { $0.stderr += line } else { $0.stdout += line } } }
  var stdout: String { text.withLock { $0.stdout } }
  var stderr: String { text.withLock { $0.stderr } }
}

/// The scope's runtime, read by the loop to know when the scope ended.
@BridgeActor
private final class ScopeFlag: Sendable {
  var runtime: TestRuntime?
  nonisolated init() {}
}

/// A value handed once from one thread to an awaiting task.
private final class OneShot<Value: Sendable>: Sendable {
  private let state = Mutex<(value: Value?, waiter: CheckedContinuation<Value, Never>?)>((nil, nil))

  func fulfill(_ value: Value) {
    let waiter = state.withLock { s -> CheckedContinuation<Value, Never>? in
      s.value = value
      defer { s.waiter = nil }
      return s.waiter
    }
    waiter?.resume(returning: value)
  }

  func value() async -> Value {
    await withCheckedContinuation { continuation in
      let ready = state.withLock { s -> Value? in
        if let value = s.value { return value }
        s.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }
}
