/// The prelude: the JavaScript files in `Sources/NBridgeRuntime/JS`, one concern a file, embedded
/// at build time. Each file is a function of `(global, internal)`; `internal` carries what one
/// file hands the next (`native`, `services`, `args`, `inspect`, ...) and, last, the `hooks`
/// the runtime calls.
enum PreludeSource {
  /// A headless run's prelude: a function of `(global, internal)` returning the hooks, with the
  /// extensions' global files (`scripts`) after the core's own and before `hooks.js`.
  static func headless(scripts: [[UInt8]]) -> String {
    compose(
      [
        PackageResources.console_js, PackageResources.webassembly_js, PackageResources.timers_js,
        PackageResources.lazy_js, PackageResources.page_shims_js, PackageResources.deferred_js,
      ] + scripts + [PackageResources.hooks_js])
  }

  /// The files `deferred.js` and `console.js` register: evaluated by `native.loadDeferred` on first touch.
  static let deferred: [String: [UInt8]] = [
    "bridge": PackageResources.bridge_js, "wkbridge": PackageResources.wkbridge_js,
    "require": PackageResources.require_js, "inspect": PackageResources.inspect_js,
  ]

  /// A page's prelude (`nbridge app`): the same `nbridge` object over the window's messages, with
  /// the extensions' `nbridge` files (`scripts`) after `bridge.js`.
  static func page(scripts: [[UInt8]]) -> String {
    compose(
      [
        PackageResources.inspect_js, PackageResources.console_js, PackageResources.page_js, PackageResources.page_timers_js,
        PackageResources.bridge_js,
      ] + scripts + [PackageResources.nbridgekit_js])
  }

  /// One function calling each file's function in order with the same `global` and `internal`.
  static func compose(_ files: [[UInt8]]) -> String {
    var source = "(function (global, internal) {\nconst parts = [\n"
    for file in files {
      var text = String(decoding: file, as: UTF8.self)
      while let last = text.last, last == "\n" || last == " " || last == ";" { text.removeLast() }
      source += text + ",\n"
    }
    source += "];\nfor (const part of parts) part(global, internal);\nreturn internal.hooks;\n})"
    return source
  }
}
