import NBridgeRuntime
import NBridgeModuleSyntax

/// A page's prelude (`nbridge app`): the same `nbridge` object a headless run builds, over the
/// window's messages.
enum PagePrelude {
  /// One function of `(global, internal)` calling each file's function in order with them, and
  /// returning `internal.hooks`: the window's `transport` files (the formatter and console, its
  /// `native` over messages, its timers), the core's `bridge.js`, then `scripts` (the
  /// extensions' `nbridge` files and the window's own).
  static func source(transport: [[UInt8]], scripts: [[UInt8]]) -> String {
    let files = transport + [PreludeSource.bridgeScript] + scripts
    var source = Array("(function (global, internal) {\nconst parts = [\n".utf8)
    source.reserveCapacity(files.reduce(source.count + 100) { $0 + $1.count + 2 })
    for file in files {
      source += ScriptFiles.trimmedEnd(file)
      source += [UInt8(ascii: ","), UInt8(ascii: "\n")]
    }
    source += "];\nfor (const part of parts) part(global, internal);\nreturn internal.hooks;\n})".utf8
    return String(decoding: source, as: UTF8.self)
  }
}
