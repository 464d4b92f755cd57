import NBridgeModuleSyntax
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
///   nbridgeScripts: [.init(name: "log", source: EmbeddedFiles.log_js)],
///   functions: [.init("log") { state, host, args in state.log(args); return nil }])
/// ```
package struct RuntimeExtension: Sendable {
  /// A JS file of an extension: a function of `(global, internal)`, as the prelude's own files are.
  package struct Script: Sendable {
    /// Its name: `nbridge:<name>.js` in stack traces.
    package var name: String
    /// Its UTF-8 text (a file of the target's `JS` folder, embedded by the EmbedFiles plugin).
    package var source: [UInt8] { text() }
    /// Reads the text when it is asked for: an embedded file is copied out of the binary's string
    /// literal on its first use, so a start that never loads a deferred file skips its copy.
    private let text: @Sendable () -> [UInt8]

    /// A script named `name`.
    package init(name: String, source: @autoclosure @escaping @Sendable () -> [UInt8]) {
      self.name = name
      text = source
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

    /// A function named `name` whose `body` answers with a value it made through the host (a
    /// compiled function, nil: `undefined`) or throws a JS value into its caller.
    package init(
      _ name: String,
      script body: @escaping @BridgeActor @Sendable (State, ExtensionHost, ExtensionArguments) throws(ThrownValue) ->
        ScriptValue?
    ) {
      self.name = name
      self.body = { state, host, args in
        do throws(ThrownValue) {
          return try body(state, host, args).map(ExtensionResult.value)
        } catch {
          return .thrown(error.value)
        }
      }
    }
  }

  /// What the runtime tells an extension of the run, each hook given the extension's state.
  package struct Hooks<State: AnyObject>: Sendable {
    /// The run begins: the folders exist, no plugin has started, no JS has run.
    package var start: Hook?
    /// The run is set up: the launch plugins have started and the globals are installed.
    package var ready: Hook?
    /// The run printed `text` (console output, an error report) at `level`; it is already written.
    package var output: (@BridgeActor @Sendable (State, ExtensionHost, String, LogLevel) -> Void)?
    /// The run takes nothing more from outside: the loop is done, the plugins not yet stopped;
    /// called again when the runtime is let go (also after a run that failed to set up).
    package var close: Hook?
    /// The run ends: the loop is done and the plugins have stopped.
    package var end: Hook?
    /// Whether the extension runs the run's entry `path` itself, its text `source` (types
    /// erased) given: asked before the run is set up (no JS has run), or, in `nbridge test`,
    /// before the test file runs. The first extension that claims it runs it (`startEntry`).
    package var claimsEntry: (@BridgeActor @Sendable (State, ExtensionHost, String, String) -> Bool)?
    /// Runs the entry the extension claimed: what it throws is uncaught (a load error); the
    /// Promise it answers, if any, settles when the entry has run (a rejection is uncaught too).
    package var startEntry:
      (@BridgeActor @Sendable (State, ExtensionHost, String, String) throws(ThrownValue) -> ScriptValue?)?
    /// A plugin asked for the runtime's caches to go (`PluginContext.clearRuntimeCaches`):
    /// removes the extension's, and names the kinds removed.
    package var clearCaches: (@BridgeActor @Sendable (State, ExtensionHost) -> [String])?
    /// Takes the run's entry over (`nbridge test`'s framework runs the tests it registers): given
    /// what the entry's evaluation threw (nil: nothing) and a claimed entry's Promise (nil: none)
    /// once it has run. The runtime then reports neither, and drops the rejections the
    /// evaluation left unhandled; the run goes on until its loop is done or it is ended.
    package var entryRan: (@BridgeActor @Sendable (State, ExtensionHost, ScriptValue?, ScriptValue?) -> Void)?
    /// What a user's script becomes before it runs, at `SourceStage`, given its text and URL: the
    /// text to run and the columns the change inserted (`[line, column, width]` each); throws the
    /// syntax error that refuses it (NBridgeModules erases types, routes `import()` and wraps an
    /// entry script's top-level `await`).
    package var transformSource: SourceTransform<State>?
    /// How an uncaught `value` prints after `Uncaught `; nil leaves it to the next extension, and
    /// the runtime prints what none describes as JavaScriptCore gives it (NBridgeConsole's).
    package var describeUncaught: (@BridgeActor @Sendable (State, ExtensionHost, ScriptValue) -> String?)?
    /// A window's page sent the extension a message (`nbridge.log` in a page): its text, as the
    /// extension's page script wrote it.
    package var pageMessage: (@BridgeActor @Sendable (State, ExtensionHost, Substring) -> Void)?

    /// A hook told only that the run reached a point: the extension's state and the host.
    package typealias Hook = @BridgeActor @Sendable (State, ExtensionHost) -> Void

    /// Hooks; each is optional.
    package init(
      start: Hook? = nil, ready: Hook? = nil,
      output: (@BridgeActor @Sendable (State, ExtensionHost, String, LogLevel) -> Void)? = nil,
      close: Hook? = nil, end: Hook? = nil
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
  /// core's timers, lazy globals and `nbridge` getter; before the hooks are handed to the runtime),
  /// each body a block of the prelude's one function: a file has no top-level `return`.
  /// A window's page never runs them (WebKit's own globals stay there). A global that needs the
  /// `nbridge` object's internals (`internal.callBuiltin`) builds it first with `internal.loadBridge()`;
  /// one that needs the entry's path reads `internal.entry` (or pushes a function of it onto
  /// `internal.onEntry`, called after the prelude: each such function costs a start its compile).
  package let globalScripts: [Script]
  /// JS files evaluated on first use by name (`native.loadDeferred(name)` returns the file's function).
  package let deferredScripts: [Script]
  // The typed parts, erased: each closure casts the state back to the extension's own type.
  let makeState: @BridgeActor @Sendable (ExtensionHost) -> AnyObject
  let values: @BridgeActor @Sendable (ExtensionHost) -> KeyValuePairs<String, JSONValue>
  let functions: [(name: String, body: @BridgeActor @Sendable (AnyObject, ExtensionHost, ExtensionArguments) -> ExtensionResult?)]
  let hooks: Hooks<AnyObject>

  /// An extension named `name` whose state for a run `state` makes (when the runtime is made,
  /// before any hook); `values` are set on the JS files' `internal` object before any runs (pairs,
  /// not a dictionary: see `SourceTexts` for what a start's first String-keyed dictionary costs).
  package init<State: AnyObject>(
    name: String, state: @escaping @BridgeActor @Sendable (ExtensionHost) -> State,
    nbridgeScripts: [Script] = [], globalScripts: [Script] = [], deferredScripts: [Script] = [],
    values: @escaping @BridgeActor @Sendable (ExtensionHost) -> KeyValuePairs<String, JSONValue> = { _ in [:] },
    functions: [Function<State>] = [], hooks: Hooks<State> = Hooks(), resource: (any Sendable)? = nil
  ) {
    self.name = name
    self.resource = resource
    self.nbridgeScripts = nbridgeScripts
    self.globalScripts = globalScripts
    self.deferredScripts = deferredScripts
    makeState = state
    self.values = values
    @Sendable func typed(_ state: AnyObject) -> State { unsafeDowncast(state, to: State.self) }
    self.functions = functions.map { function in
      let body = function.body
      return (function.name, { body(typed($0), $1, $2) })
    }
    var erased = Hooks<AnyObject>()
    if let start = hooks.start { erased.start = { start(typed($0), $1) } }
    if let ready = hooks.ready { erased.ready = { ready(typed($0), $1) } }
    if let output = hooks.output { erased.output = { output(typed($0), $1, $2, $3) } }
    if let close = hooks.close { erased.close = { close(typed($0), $1) } }
    if let end = hooks.end { erased.end = { end(typed($0), $1) } }
    if let claims = hooks.claimsEntry { erased.claimsEntry = { claims(typed($0), $1, $2, $3) } }
    if let start = hooks.startEntry {
      erased.startEntry = { (state, host, path, source) throws(ThrownValue) in try start(typed(state), host, path, source) }
    }
    if let clear = hooks.clearCaches { erased.clearCaches = { clear(typed($0), $1) } }
    if let ran = hooks.entryRan { erased.entryRan = { ran(typed($0), $1, $2, $3) } }
    if let describe = hooks.describeUncaught { erased.describeUncaught = { describe(typed($0), $1, $2) } }
    if let message = hooks.pageMessage { erased.pageMessage = { message(typed($0), $1, $2) } }
    if let transform = hooks.transformSource {
      erased.transformSource = { state, host, stage, text, url throws(ModuleSyntaxError) in
        try transform(typed(state), host, stage, text, url)
      }
    }
    self.hooks = erased
  }
}

/// A hook of `RuntimeExtension.Hooks` told only that the run reached a point, its state erased.
typealias RunHook = RuntimeExtension.Hooks<AnyObject>.Hook
