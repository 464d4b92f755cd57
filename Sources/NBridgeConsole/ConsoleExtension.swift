import NBridgeRuntime

/// `console` and the value formatting the rest of the runtime prints with, as an extension of
/// the runtime (Deno's ext/console is the model): `console.js` among a headless run's global
/// files, `inspect.js` (inspect, format with `%`-substitutions, formatStack with the column
/// shifts of rewritten scripts) and `console-more.js` (the methods a script seldom calls)
/// evaluated on first need; a window's page gets both in its
/// prelude (`pageScripts`). Lines go through the core's `native.print`, where the extensions'
/// `output` hooks (the log sender's) see them. An uncaught error prints as `ErrorReport` says
/// (the `describeUncaught` hook).
package enum ConsoleExtension {
  /// The extension; it keeps nothing for a run. It comes first in a run's list: the other
  /// extensions' files read the formatting it leaves on `internal`.
  package static func make() -> RuntimeExtension {
    var hooks = RuntimeExtension.Hooks<NoState>()
    hooks.describeUncaught = { _, host, value in ErrorReport.describe(value, host) }
    return RuntimeExtension(
      name: "console", state: { _ in NoState() },
      globalScripts: [.init(name: "console", source: EmbeddedFiles.console_js)],
      deferredScripts: [
        .init(name: "inspect", source: EmbeddedFiles.inspect_js),
        .init(name: "console-more", source: EmbeddedFiles.console_more_js),
      ], hooks: hooks)
  }

  /// The files of a window's page, in order: the formatter first (a page includes it, a
  /// headless run defers it), then the console over the page's messages.
  package static let pageScripts: [[UInt8]] = [EmbeddedFiles.inspect_js, EmbeddedFiles.console_js]

  /// The state of an extension that keeps none.
  private final class NoState {}
}
