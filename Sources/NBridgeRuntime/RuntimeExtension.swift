import NBridgePlugin

/// A concern that registers with the runtime instead of adding to it (Deno's extensions are the
/// model): the JS files it adds to the `nbridge` object, the native functions those files call,
/// the state it keeps for one run, and hooks at the run's start, on what the run prints, and at
/// its end. The runtime takes its extensions from `RuntimeConfiguration.extensions`; the CLI
/// lists them (`NBridgeCommand.extensions`). An extension never sees a raw JavaScriptCore value:
/// its functions read their arguments through `ExtensionArguments` and answer with a `JSONValue`.
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
    package var body: @BridgeActor @Sendable (State, ExtensionHost, ExtensionArguments) -> JSONValue?

    /// A function named `name`.
    package init(
      _ name: String, _ body: @escaping @BridgeActor @Sendable (State, ExtensionHost, ExtensionArguments) -> JSONValue?
    ) {
      self.name = name
      self.body = body
    }
  }

  /// What the runtime tells an extension of the run, each hook given the extension's state.
  package struct Hooks<State: AnyObject>: Sendable {
    /// The run begins: the folders exist, no plugin has started, no JS has run.
    package var start: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)?
    /// The run printed `text` (console output, an error report) at `level`; it is already written.
    package var output: (@BridgeActor @Sendable (State, ExtensionHost, String, LogLevel) -> Void)?
    /// The run ends: the loop is done and the plugins have stopped.
    package var end: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)?

    /// Hooks; each is optional.
    package init(
      start: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)? = nil,
      output: (@BridgeActor @Sendable (State, ExtensionHost, String, LogLevel) -> Void)? = nil,
      end: (@BridgeActor @Sendable (State, ExtensionHost) -> Void)? = nil
    ) {
      self.start = start
      self.output = output
      self.end = end
    }
  }

  /// The extension's name (`log`, `control`).
  package let name: String
  /// JS files run, in order, when the `nbridge` object is first built (after `bridge.js`), in a
  /// headless run and in a window's page alike.
  package let nbridgeScripts: [Script]
  // The typed parts, erased: each closure casts the state back to the extension's own type.
  let makeState: @BridgeActor @Sendable (ExtensionHost) -> AnyObject
  let values: @BridgeActor @Sendable (ExtensionHost) -> [String: JSONValue]
  let functions: [(name: String, body: @BridgeActor @Sendable (AnyObject, ExtensionHost, ExtensionArguments) -> JSONValue?)]
  let start: (@BridgeActor @Sendable (AnyObject, ExtensionHost) -> Void)?
  let output: (@BridgeActor @Sendable (AnyObject, ExtensionHost, String, LogLevel) -> Void)?
  let end: (@BridgeActor @Sendable (AnyObject, ExtensionHost) -> Void)?

  /// An extension named `name` whose state for a run `state` makes (when the runtime is made,
  /// before any hook); `values` are set on the JS files' `internal` object before any runs.
  package init<State: AnyObject>(
    name: String, state: @escaping @BridgeActor @Sendable (ExtensionHost) -> State,
    nbridgeScripts: [Script] = [], values: @escaping @BridgeActor @Sendable (ExtensionHost) -> [String: JSONValue] = { _ in [:] },
    functions: [Function<State>] = [], hooks: Hooks<State> = Hooks()
  ) {
    self.name = name
    self.nbridgeScripts = nbridgeScripts
    makeState = state
    self.values = values
    self.functions = functions.map { function in
      let body = function.body
      let erased: @BridgeActor @Sendable (AnyObject, ExtensionHost, ExtensionArguments) -> JSONValue? = {
        state, host, args in body(unsafeDowncast(state, to: State.self), host, args)
      }
      return (function.name, erased)
    }
    if let start = hooks.start {
      self.start = { state, host in start(unsafeDowncast(state, to: State.self), host) }
    } else {
      self.start = nil
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
  let runtime: Runtime

  /// The run's configuration.
  package var configuration: RuntimeConfiguration { runtime.configuration }

  /// How far the top-level-await wrapper moved first-line columns, by script URL: a stack's
  /// column on line 1 of such a script is this much too far right.
  package var firstLineColumnShifts: [String: Int] { runtime.logColumnShifts }

  /// Writes `text` to the run's stdout (1) or stderr (2) (`RuntimeConfiguration.output` when set)
  /// without forwarding it anywhere.
  package func write(_ fd: Int32, _ text: String) {
    if let output = runtime.configuration.output { output(fd, text) } else { writeAll(fd, text) }
  }
}
