import NBridgePlugin
import NBridgeSystem

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

  /// How far a wrapper (top-level await's) moved first-line columns, by script URL: a stack's
  /// column on line 1 of such a script is this much too far right.
  package var firstLineColumnShifts: [String: Int] { runtime.logColumnShifts }

  /// Records that a wrapper (top-level await's) moved the first line of `url` by `width`.
  package func shiftFirstLineColumns(of url: String, by width: Int) { runtime.logColumnShifts[url] = width }

  /// The source text of the script `url`, as written, that error reports point into.
  package func source(of url: String) -> String? { runtime.sources[url] }

  /// Keeps `text` as the source of `url` for error reports (a TypeScript file's own text, not the erased one).
  package func setSource(_ text: String, of url: String) { runtime.sources[url] = text }

  /// Whether the run is `nbridge test`'s: an extension takes the entry over (`Hooks.entryRan`)
  /// and awaits a claimed entry's Promise itself.
  package var runsTests: Bool { runtime.configuration.extensions.contains { $0.hooks.entryRan != nil } }

  /// The run's entry file (absolute; empty before the entry is known).
  package var entryPath: String { runtime.entryPath }

  /// The folder the run may read files from (`fetch` of `file:` URLs, the module loader): the
  /// entry's, or the wider one `nbridge test` sets; as the entry's path spells it, and resolved.
  package var readableFolder: (lexical: String, folder: PageFolder?)? { runtime.readableFolder }

  /// The run's loop: descriptor watches and timers for what the extension serves.
  package var loop: EventLoop { runtime.loop }

  /// When the run began, in milliseconds of wall-clock time (`performance.timeOrigin`).
  package var timeOrigin: Double { runtime.timeOrigin.wallMilliseconds }

  /// Milliseconds since the run began on the loop's clock, microsecond resolution (`performance.now()`).
  package var sinceTimeOrigin: Double {
    Double((runtime.loop.clock.now() - runtime.timeOrigin.instant).wholeNanoseconds / 1_000) / 1_000
  }

  /// Whether the run is ending (an exit was asked for, or the runtime is gone): nothing new should start.
  package var isExiting: Bool { weakRuntime.map { $0.exitCode != nil } ?? true }

  /// Whether the runtime still exists (an extension's state may outlive it in a C library's callback).
  package var isAlive: Bool { weakRuntime != nil }

  /// The handler plugins and the runtime registered for control op `op` (`PluginContext.handleControl`).
  package func controlHandler(_ op: String) -> ControlHandler? {
    runtime.controlHandlers.first { $0.op == op }?.handler
  }

  /// The control ops registered, sorted.
  package var controlOps: [String] { runtime.controlHandlers.map(\.op).sorted() }

  /// Runs what follows a callback into JS from outside (unhandled rejections reported).
  package func afterCallback() { weakRuntime?.afterCallback() }

  /// Prints `text` to the run's stdout (1) or stderr (2) as the run's own output: written, and
  /// handed to every extension's `output` hook (the log).
  package func print(_ fd: Int32, _ text: String) { runtime.emitOutput(fd, text) }

  /// Writes `text` to the run's stdout (1) or stderr (2) (`RuntimeConfiguration.output` when set)
  /// without forwarding it anywhere.
  package func write(_ fd: Int32, _ text: String) {
    if let output = runtime.configuration.output { output(fd, text) } else { writeAll(fd, text) }
  }
}
