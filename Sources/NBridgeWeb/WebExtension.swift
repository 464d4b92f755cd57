import NBridgePlugin
import NBridgeRuntime

/// The web APIs of a headless run as an extension of the runtime (Deno's `deno_web` is the
/// model): `web.js` registers their globals, each group's file is evaluated on the first touch
/// of one of its names, and the native floor the files call (random bytes, digests, IDNA, the
/// legacy decoders, `navigator`'s facts, `localStorage`'s file) answers through `ExtensionArguments`. A window's page
/// has WebKit's own web APIs: nothing here runs there.
package enum WebExtension {
  /// The extension, as every headless run of the CLI and an in-process test runtime get it.
  package static func make() -> RuntimeExtension {
    RuntimeExtension(
      name: "web", state: { _ in WebState() },
      globalScripts: [.init(name: "web", source: PackageResources.web_js)],
      deferredScripts: deferredScripts, functions: WebNatives.functions + LocalStorageNatives.functions)
  }

  /// The files `web.js` registers, evaluated by `native.loadDeferred(name)` on first touch.
  static let deferredScripts: [RuntimeExtension.Script] = [
    .init(name: "events", source: PackageResources.events_js), .init(name: "abort", source: PackageResources.abort_js),
    .init(name: "performance", source: PackageResources.performance_js),
    .init(name: "crypto", source: PackageResources.crypto_js),
    .init(name: "navigator", source: PackageResources.navigator_js), .init(name: "url", source: PackageResources.url_js),
    .init(name: "url-parser", source: PackageResources.url_parser_js),
    .init(name: "domexception", source: PackageResources.domexception_js),
    .init(name: "encoding", source: PackageResources.encoding_js),
    .init(name: "storage", source: PackageResources.storage_js), .init(name: "blob", source: PackageResources.blob_js),
    .init(name: "message", source: PackageResources.message_js),
  ]
}

/// What the web APIs keep for one run.
@BridgeActor
package final class WebState {
  /// `localStorage`'s file, opened on first use.
  var localStorageFile: LocalStorageFile?
}
