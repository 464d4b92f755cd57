import NBridgeModuleSyntax

/// The prelude: the JavaScript files in `Sources/NBridgeRuntime/JS`, one concern a file, embedded
/// at build time. Each file is a function of `(global, internal)`; `internal` carries what one
/// file hands the next (`native`, `services`, `args`, `inspect`, ...) and, last, the `hooks`
/// the runtime calls.
package enum PreludeSource {
  /// The files of a headless run's prelude, in order: the core's, the extensions' global files
  /// (`scripts`), then `hooks.js`.
  package static func headlessFiles(scripts: [[UInt8]]) -> [[UInt8]] {
    [
      EmbeddedFiles.timers_js, EmbeddedFiles.lazy_js, EmbeddedFiles.deferred_js,
    ] + scripts + [EmbeddedFiles.hooks_js]
  }

  /// A headless run's prelude as UTF-8 bytes: a function of `(global, internal)` returning the
  /// hooks, with the extensions' global files (`scripts`) after the core's own and before
  /// `hooks.js`, each file's body inline (`ScriptFiles.inline`), compacted for the parse at every
  /// start (`ScriptFiles.compact`), without a Swift string on the way.
  package static func headlessBytes(scripts: [[UInt8]]) -> [UInt8] {
    ScriptFiles.compact(bytes: ScriptFiles.inline(headlessFiles(scripts: scripts)))
  }

  /// The files `deferred.js` registers: evaluated by `native.loadDeferred` on first touch.
  static let deferred: [String: [UInt8]] = ["bridge": EmbeddedFiles.bridge_js]

  /// `bridge.js`: the `nbridge` object, which a window's page builds over its own messages (NBridgeWindow's `PagePrelude`).
  package static let bridgeScript = EmbeddedFiles.bridge_js
}
