import NBridgePlugin

/// A concern that registers with the runtime instead of adding to it (Deno's extensions are the
/// model): the JS files it adds to the `nbridge` object, the native functions those files call,
/// the state it keeps for one run, and hooks at the run's start, on what the run prints, and at
/// its end. The runtime takes its extensions from `RuntimeConfiguration.extensions`; the CLI
/// lists them (`NBridgeCommand.extensions`). An extension never sees a raw JavaScriptCore value:
/// its functions read their arguments through `ExtensionArguments` and answer with a `JSONValue`
/// (or, for strings of UTF-16, arrays and bytes, an `ExtensionResult`).
///
/// ```swift
/// RuntimeExtension(name: "log", state: { host in LogState(host) },
///   nbridgeScripts: [.init(name: "log", source: PackageResources.log_js)],
///   functions: [.init("log") { state, host, args in state.log(args); return nil }])
/// ```
package struct RuntimeExtension: Sendable {
  /// A JS file of an extension: a function of `(global, internal)`, as the prelude's own files are.
  package struct Script: Sendable {
    /// Its name: `nbridge:<name>.js` in stack traces.
    package var name: String
    /// Its UTF-8 text (a file embedded with `resources: [.embedInCode("JS")]`).
    package var source: [UInt8]

    /// A script named `name`.
    package init(name: String, source: [UInt8]) {
      self.name = name
      self.source = source
    }
  }

  /// A native function the extension's JS calls as `internal.native[name](...)`.
  package struct Function<State: AnyObject>: Sendable {
    /// Its name on `internal.native`.
    package var name: String
    /// Its body: the extension's state for this run, the runtime, the arguments; the answer
    /// (nil: `undefined`).
    package var body: @BridgeActor @Sendable (State, ExtensionHost, ExtensionArguments) -> ExtensionResult?

    /// A function named `name` answering with a `JSONValue`.
    package init(
      _ name: String, _ body: @escaping @BridgeActor @Sendable (State, ExtensionHost, ExtensionArguments) -> JSONValue?
    ) {
      self.name = name
      self.body = { state, host, args in body(state, host, args).map(ExtensionResult.json) }
    }

    /// A function named `name` answering with what JSON cannot carry (UTF-16, bytes, an error).
    package init(
      _ name: String,
      result body: @escaping @BridgeActor @Sendable (State, ExtensionHost, ExtensionArguments) -> ExtensionResult?
    ) {
      self.name = name
      self.body = body
    }
  }

  /// What the runtime tells an extension of the run, each hook given the extension's state.
  package struct Hooks<State: AnyObject>: Sendable {
    /// The run begins: the folders exist, no plugin has started, no JS has run.
    package var start: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)?
    /// The run is set up: the launch plugins have started and the globals are installed.
    package var ready: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)?
    /// The run printed `text` (console output, an error report) at `level`; it is already written.
    package var output: (@BridgeActor @Sendable (State, ExtensionHost, String, LogLevel) -> Void)?
    /// The run takes nothing more from outside: the loop is done, the plugins not yet stopped;
    /// called again when the runtime is let go (also after a run that failed to set up).
    package var close: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)?
    /// The run ends: the loop is done and the plugins have stopped.
    package var end: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)?

    /// Hooks; each is optional.
    package init(
      start: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)? = nil,
      ready: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)? = nil,
      output: (@BridgeActor @Sendable (State, ExtensionHost, String, LogLevel) -> Void)? = nil,
      close: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)? = nil,
      end: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)? = nil
    ) {
      self.start = start
      self.ready = ready
      self.output = output
      self.close = close
      self.end = end
    }
  }

  /// The extension's name (`log`, `control`).
  package let name: String
  /// What the program that made the extension may take back from its list (the control
  /// socket's listener, which the CLI closes when the run never started).
  package let resource: (any Sendable)?
  /// JS files run, in order, when the `nbridge` object is first built (after `bridge.js`), in a
  /// headless run and in a window's page alike.
  package let nbridgeScripts: [Script]
  /// JS files of a headless run's global object, run in order as part of the prelude (after the
  /// core's timers, lazy globals and `nbridge` getter; before the hooks are handed to the runtime).
  package let globalScripts: [Script]
  /// JS files evaluated on first use by name (`native.loadDeferred(name)` returns the file's function).
  package let deferredScripts: [Script]
  // The typed parts, erased: each closure casts the state back to the extension's own type.
  let makeState: @BridgeActor @Sendable (ExtensionHost) -> AnyObject
  let values: @BridgeActor @Sendable (ExtensionHost) -> [String: JSONValue]
  let functions: [(name: String, body: @BridgeActor @Sendable (AnyObject, ExtensionHost, ExtensionArguments) -> ExtensionResult?)]
  let start: (@BridgeActor @Sendable (AnyObject, ExtensionHost) -> Void)?
  let ready: (@BridgeActor @Sendable (AnyObject, ExtensionHost) -> Void)?
  let close: (@BridgeActor @Sendable (AnyObject, ExtensionHost) -> Void)?
  let output: (@BridgeActor @Sendable (AnyObject, ExtensionHost, String, LogLevel) -> Void)?
  let end: (@BridgeActor @Sendable (AnyObject, ExtensionHost) -> Void)?

  /// An extension named `name` whose state for a run `state` makes (when the runtime is made,
  /// before any hook); `values` are set on the JS files' `internal` object before any runs.
  package init<State: AnyObject>(
    name: String, state: @escaping @BridgeActor @Sendable (ExtensionHost) -> State,
    nbridgeScripts: [Script] = [], globalScripts: [Script] = [], deferredScripts: [Script] = [],
    values: @escaping @BridgeActor @Sendable (ExtensionHost) -> [String: JSONValue] = { _ in [:] },
    functions: [Function<State>] = [], hooks: Hooks<State> = Hooks(), resource: (any Sendable)? = nil
  ) {
    self.name = name
    self.resource = resource
    self.nbridgeScripts = nbridgeScripts
    self.globalScripts = globalScripts
    self.deferredScripts = deferredScripts
    makeState = state
    self.values = values
    self.functions = functions.map { function in
      let body = function.body
      let erased: @BridgeActor @Sendable (AnyObject, ExtensionHost, ExtensionArguments) -> ExtensionResult? = {
        state, host, args in body(unsafeDowncast(state, to: State.self), host, args)
      }
      return (function.name, erased)
    }
    if let start = hooks.start {
      self.start = { state, host in start(unsafeDowncast(state, to: State.self), host) }
    } else {
      self.start = nil
    }
    if let ready = hooks.ready {
      self.ready = { state, host in ready(unsafeDowncast(state, to: State.self), host) }
    } else {
      self.ready = nil
    }
    if let close = hooks.close {
      self.close = { state, host in close(unsafeDowncast(state, to: State.self), host) }
    } else {
      self.close = nil
    }
    if let output = hooks.output {
      self.output = { state, host, text, level in output(unsafeDowncast(state, to: State.self), host, text, level) }
    } else {
      self.output = nil
    }
    if let end = hooks.end {
      self.end = { state, host in end(unsafeDowncast(state, to: State.self), host) }
    } else {
      self.end = nil
    }
  }
}

/// What an extension sees of the runtime running it.
@BridgeActor
package struct ExtensionHost {
  /// Weak: an extension's state (a server's callbacks) keeps a host, and the runtime keeps the state.
  private weak var weakRuntime: Runtime?
  /// The runtime; an extension reaches it only while the run goes on.
  var runtime: Runtime { weakRuntime! }

  init(runtime: Runtime) { weakRuntime = runtime }

  /// The run's configuration.
  package var configuration: RuntimeConfiguration { runtime.configuration }

  /// How far the top-level-await wrapper moved first-line columns, by script URL: a stack's
  /// column on line 1 of such a script is this much too far right.
  package var firstLineColumnShifts: [String: Int] { runtime.logColumnShifts }

  /// The run's loop: descriptor watches and timers for what the extension serves.
  package var loop: EventLoop { runtime.loop }

  /// Whether the run is ending (an exit was asked for): nothing new should start.
  package var isExiting: Bool { runtime.exitCode != nil }

  /// The handler plugins and the runtime registered for control op `op` (`PluginContext.handleControl`).
  package func controlHandler(_ op: String) -> ControlHandler? { runtime.controlHandlers[op] }

  /// The control ops registered, sorted.
  package var controlOps: [String] { runtime.controlHandlers.keys.sorted() }

  /// Runs what follows a callback into JS from outside (unhandled rejections reported).
  package func afterCallback() { weakRuntime?.afterCallback() }

  /// Writes `text` to the run's stdout (1) or stderr (2) (`RuntimeConfiguration.output` when set)
  /// without forwarding it anywhere.
  package func write(_ fd: Int32, _ text: String) {
    if let output = runtime.configuration.output { output(fd, text) } else { writeAll(fd, text) }
  }
}
