import CJavaScriptCore
import Glibc
import NBridgePlugin
import NBridgeSystem

/// Runs one script in a fresh JavaScriptCore context with a set of plugins.
///
/// ```swift
/// let status = Runtime.run(configuration, file: "www/index.js")
/// ```
@BridgeActor
public final class Runtime {
  /// What this run was made with.
  package let configuration: RuntimeConfiguration
  /// The script's context, made on first use: a window (`nbridge app`) never makes one, since a
  /// JavaScriptCore VM on the UI thread stalls WebKitGTK's main run loop (its page never loads).
  lazy var js = JSContext()
  /// The run's loop, on the thread that runs it.
  package let loop: EventLoop
  var slots: [ServiceSlot] = []
  /// The prelude's hooks object, kept for the run.
  var protectedHooks: ScriptValue?
  var hooks: JSObjectRef! { protectedHooks?.ref }
  var makeErrorFunction: JSObjectRef!
  var emitFunction: JSObjectRef!
  /// The prelude's `answer(id, value)`, `fail(id, error)` and `answerAll([id, value, ...])` (bridge.js's calls in flight).
  var answerFunctions: (one: JSObjectRef, fail: JSObjectRef, all: JSObjectRef)?
  /// The headless call being started by `native.start` (its id), and what it was answered with
  /// before it returned, if it was: its Promise is made in JS after `native.start` returns.
  var startingCall: (id: Int, answer: CallAnswer?)?
  /// The exit status the run asked for (uncaught error, `app.exit`, `--timeout`), or nil while it goes on.
  package internal(set) var exitCode: Int32?
  var callSlots: [Int: CallSlot] = [:]
  /// Answers given during an `AnswerBatch`, delivered together when it ends (`deliverHeldAnswers`).
  var heldAnswers: [(CallSlot, CallAnswer)] = []
  /// How many calls started together in `native.startAll` (for tests of the batching).
  package internal(set) var callsStartedTogether = 0
  var nextCallID = 1
  var jsTimers: [Int: ScriptValue] = [:]
  var unhandled: [(promise: ScriptValue, reason: ScriptValue)] = []
  /// When the run began: `performance.timeOrigin` (wall clock) and the zero of `performance.now()`.
  let timeOrigin: TimeOrigin
  /// Source text by URL, for pointing at the line of a syntax error.
  var sources = SourceTexts()
  /// The prelude's native object, which extensions' JS shares.
  var nativeObject: ScriptValue?
  /// The entry file's absolute path (empty until the run knows it).
  package var entryPath = ""
  /// The width of a wrapper's head on line 1 (top-level await's, a module's run without the
  /// loader), by script URL (taken off first-line columns of log callers).
  var logColumnShifts: [String: Int] = [:]
  /// Each extension's state for this run, in the order of `configuration.extensions`.
  var extensionStates: [AnyObject] = []
  /// What extensions see of this runtime.
  lazy var extensionHost = ExtensionHost(runtime: self)
  /// Where the replies of this run's calls go (`AnyReply`), cut when the run ends.
  lazy var replyRoute = ReplyRoute(to: self)
  /// The window showing the app's page, in `nbridge app`.
  package weak var page: PageHost?
  /// Whether `exitCode` was asked for before any stopping signal came (see `endStatus`).
  var exitPrecedesSignal = false
  /// The folder `fetch` and the module loader may read (set with the entry): the entry's, or
  /// the wider `RuntimeConfiguration.readableFolder`.
  var readableFolder: (lexical: String, folder: PageFolder?)?
  /// Control-socket ops registered by plugins (`handleControl`, in `Runtime+Host`); NBridgeControl serves them.
  /// A list, not a dictionary keyed by op: see `SourceTexts` for what a start's first String-keyed
  /// dictionary costs.
  var controlHandlers: [(op: String, handler: ControlHandler)] = []
  /// The app's lifecycle, shared with every plugin's context and the window; the lifecycle
  /// extension (NBridgeLifecycle) delivers its moves and suspends the run.
  package let lifecycle: Lifecycle
  /// Whether the delivery gate is closed (`Runtime+Delivery`): JS timers frozen, every other way into JS waiting.
  var deliveriesHeld = false
  /// What waits to enter JS while the delivery gate is closed, in order.
  var heldDeliveries: [HeldDelivery] = []

  /// The runtime running on this process's loop thread, if one is.
  package internal(set) static var current: Runtime?

  /// A runtime for `configuration`; call `run` on the loop thread.
  init(configuration: RuntimeConfiguration) {
    self.configuration = configuration
    loop = EventLoop(clock: configuration.clock)
    timeOrigin = TimeOrigin(clock: configuration.clock)
    for definition in configuration.plugins.definitions {
      slots.append(ServiceSlot(definition, allowed: configuration.allows(permission: definition.permission)))
    }
    lifecycle = Lifecycle(state: configuration.initialState)
    lifecycle.followsSession = configuration.followsSession
    loop.externalWork = { [unowned self] in !self.callSlots.isEmpty || !self.heldDeliveries.isEmpty }
    extensionStates = configuration.extensions.map { $0.makeState(extensionHost) }
  }

  /// Runs `file` on the calling thread, which becomes the loop thread, and returns the exit status.
  /// Only one runtime runs in a process at a time.
  public nonisolated static func run(_ configuration: RuntimeConfiguration, file: String) -> Int32 {
    runOnThisThread(configuration) { runtime in runtime.runMain(file: file) }
  }

  /// Runs `file` as `run(_:file:)` does, then ends the process with its exit status, without
  /// tearing the JavaScript context down: releasing it runs a last garbage collection over the
  /// whole heap (about 2 ms for a hello) that `_exit` makes pointless. Standard I/O is flushed
  /// first; the control socket is closed and plugins have stopped and flushed in `finish()` by then.
  public nonisolated static func runThenExit(_ configuration: RuntimeConfiguration, file: String) -> Never {
    runOnThisThread(configuration) { runtime -> Never in
      let status = runtime.runMain(file: file)
      fflush(nil)
      _exit(status)
    }
  }

  /// Runs `source` (named `name` in stack traces) on the calling thread; returns the exit status.
  public nonisolated static func run(_ configuration: RuntimeConfiguration, source: String, name: String) -> Int32 {
    runOnThisThread(configuration) { runtime in runtime.runMain(source: source, name: name) }
  }

  /// Makes a runtime of `configuration` on the calling thread, which becomes the loop thread,
  /// and answers what `body` does with it.
  package nonisolated static func runOnThisThread<T>(
    _ configuration: RuntimeConfiguration, _ body: @BridgeActor (Runtime) -> T
  ) -> T {
    LoopExecutor.shared.bindToCurrentThread()
    defer { LoopExecutor.shared.unbind() }
    // The loop thread owns GLib's default context for exactly this scope: acquired and
    // released here, on one thread, whatever outlives the runtime object.
    let glib = g_main_context_default()
    let acquired = g_main_context_acquire(glib) != 0
    defer { if acquired { g_main_context_release(glib) } }
    return BridgeActor.assumeIsolated {
      let runtime = Runtime(configuration: configuration)
      Runtime.current = runtime
      defer {
        Runtime.current = nil
        runtime.replyRoute.cut()
      }
      defer { runtime.runHooks { $0.close } }
      return body(runtime)
    }
  }

  // MARK: Lifecycle

  func runMain(file: String) -> Int32 {
    guard let source = readTextFile(file) else {
      writeError("nbridge: cannot read \(file): \(systemError())\n")
      return ExitStatus.usage
    }
    return runMain(source: source, name: absolutePath(file))
  }

  func runMain(source text: String, name: String) -> Int32 {
    let (source, refused) = runnableEntry(text, path: name)
    // Claimed before the set-up: the module loader starts reading its cache meanwhile.
    entryPath = name
    let claim = refused == nil ? extensionClaimingEntry(name, source: source) : nil
    if let status = prepare(entry: name) { return status }
    sources[name] = text
    if let taker = configuration.extensions.indices.first(where: { configuration.extensions[$0].hooks.entryRan != nil }) {
      handEntry(to: taker, source: source, refused: refused, claim: claim, path: name)
    } else {
      do {
        if let promise = try runEntry(source, refused: refused, claim: claim, path: name) {
          try reportRejection(of: promise)
        }
      } catch {
        reportUncaught(error.value)
      }
    }
    afterCallback()
    return finish()
  }

  /// Creates the folders, starts launch-time plugins and installs the globals; returns an exit status on failure.
  package func prepare(entry: String, installsGlobals: Bool = true) -> Int32? {
    for dir in [configuration.dataDirectory, configuration.sharedDirectory] where !makeDirectories(dir) {
      writeError("nbridge: cannot create \(dir): \(systemError())\n")
      return ExitStatus.usage
    }
    runHooks { $0.start }
    // Plugins first: what they start waits in the kernel while the JS context is set up (the
    // app plugin counts the launch on a thread), and no script can listen to them before it runs.
    startLaunchPlugins()
    do {
      if installsGlobals { try installGlobals(entry: entry) }
    } catch {
      writeError("nbridge: internal error installing globals: \(js.toString(error.value))\n")
      return ExitStatus.uncaught
    }
    runHooks { $0.ready }
    return exitCode
  }

  /// Turns the loop until nothing is left, then stops plugins; returns the exit status.
  package func finish() -> Int32 {
    if exitCode == nil { loop.run() }
    runHooks { $0.close }
    stopPlugins()
    runHooks(lastFirst: true) { $0.end }
    return endStatus()
  }

  /// The run's status: a stopping signal's when one came before the run ended, unless the run
  /// had been asked to end with another status before it came; else what was asked, or success.
  /// The loop may never read a signal that came during the last turn (nothing is left to wait
  /// for), so this asks the handler's record, not the loop.
  func endStatus() -> Int32 {
    if configuration.handlesSignals, let status = RunSignals.stoppedStatus, exitCode == nil || !exitPrecedesSignal {
      return status
    }
    return exitCode ?? ExitStatus.success
  }

  /// Ends the run with `code` at the next turn of the loop (the first request wins).
  func requestExit(_ code: Int32) {
    if exitCode == nil {
      exitCode = code
      exitPrecedesSignal = RunSignals.stoppedStatus == nil
    }
    loop.stopRequested = true
  }

  /// Runs after every callback from the loop into JS: fires `unhandledrejection` for each
  /// rejection no handler took, and reports the first whose default no listener prevented.
  func afterCallback() {
    while !unhandled.isEmpty, exitCode == nil {
      let rejection = unhandled.removeFirst()
      let prevented = try? callHook("unhandledRejection", [rejection.promise.ref, rejection.reason.ref])
      if let prevented, JSValueToBoolean(js.ref, prevented) { continue }
      unhandled.removeAll()
      reportUncaught(rejection.reason.ref, prefix: "Uncaught (in promise)", firesEvent: false)
    }
  }

  /// Fires the global `error` event for an uncaught exception; unless a listener prevents its
  /// default, prints it and ends the run with status 1.
  func reportUncaught(_ value: JSValueRef, prefix: String = "Uncaught", firesEvent: Bool = true) {
    if exitCode != nil { return }
    if firesEvent, let prevented = try? callHook("uncaught", [value]), JSValueToBoolean(js.ref, prevented) { return }
    if exitCode != nil { return }
    emitOutput(2, describeUncaught(value, prefix: prefix) + "\n")
    requestExit(ExitStatus.uncaught)
  }

  // MARK: Plugins

  func context(for slot: ServiceSlot) -> PluginContext {
    if let context = slot.context { return context }
    let warnings = configuration.output.map { output in { @Sendable line in output(2, line) } }
    let context = PluginContext(
      service: slot.definition.service, manifest: configuration.manifest, dataDirectory: configuration.dataDirectory,
      sharedDirectory: configuration.sharedDirectory, arguments: configuration.arguments,
      headless: configuration.headless, environment: configuration.environment, host: self, warnings: warnings,
      lifecycle: lifecycle, launchURL: configuration.launchURL)
    slot.context = context
    return context
  }

  /// Creates and starts a slot's plugin if it is idle; the start may finish later.
  func activate(_ slot: ServiceSlot) {
    guard case .idle = slot.state else { return }
    let plugin: AnyPlugin
    do {
      plugin = try slot.definition.makePlugin(context: context(for: slot))
    } catch {
      slot.state = .failed(bridgeError(from: error))
      return
    }
    let finished = LoopBox(false)
    let task = Task.immediate { @BridgeActor [weak self] in
      do {
        try await plugin.object.start()
        slot.state = .ready(plugin)
      } catch {
        slot.state = .failed(self?.bridgeError(from: error) ?? BridgeError(.unknownError, "\(error)"))
      }
      finished.value = true
      self?.pluginBecameReady(slot)
    }
    if !finished.value { slot.state = .starting(task) }
  }

  /// Tells a plugin that just started about listeners added while it was starting.
  func pluginBecameReady(_ slot: ServiceSlot) {
    guard let plugin = slot.plugin else { return }
    for (event, count) in slot.listenerCounts where count > 0 {
      plugin.object.listenersChanged(event: event, count: count)
    }
  }

  func startLaunchPlugins() {
    let launch = slots.filter { $0.definition.startsAtLaunch && $0.allowed }
    for slot in launch { activate(slot) }
    loop.run(whileAlive: false) {
      self.exitCode != nil || !launch.contains { if case .starting = $0.state { true } else { false } }
    }
  }

  func stopPlugins() {
    for (_, call) in callSlots { call.cancel() }
    let live = slots.compactMap(\.plugin)
    guard !live.isEmpty else { return }
    let stopped = LoopBox(false)
    Task.immediate { @BridgeActor in
      for plugin in live { await plugin.object.stop() }
      stopped.value = true
    }
    // Real time, whatever the run's clock: a stop hook waits on the outside world (files, D-Bus).
    let realClock = MonotonicClock()
    let deadline = realClock.now() + .seconds(10)
    loop.stopRequested = false
    loop.run(whileAlive: false) { stopped.value || realClock.now() > deadline }
    loop.stopRequested = true
  }

  /// Writes to the run's stdout (1) or stderr (2), and shows it to the extensions (the log
  /// viewer's, `--log-to`) at `level` (by default info for stdout, error for stderr).
  package func emitOutput(_ fd: Int32, _ text: String, level: LogLevel? = nil) {
    extensionHost.write(fd, text)
    if !configuration.extensions.isEmpty { extensionsSaw(output: text, level: level ?? (fd == 2 ? .error : .info)) }
  }

  func bridgeError(from error: any Error) -> BridgeError {
    if let bridge = error as? BridgeError { return bridge }
    if error is CancellationError { return BridgeError(.unknownError, "the call was cancelled") }
    return BridgeError(.unknownError, String(describing: error))
  }
}

/// A value shared on the loop between a closure and the code that made it (a task's end, a timer's own id).
@BridgeActor
final class LoopBox<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}
