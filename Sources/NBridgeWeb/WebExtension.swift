import Glibc
import NBridgePlugin
import NBridgeRuntime

/// The web APIs of a headless run as an extension of the runtime (Deno's `deno_web` is the
/// model): `web.js` registers their globals, each group's file is evaluated on the first touch
/// of one of its names, and the native floor the files call (random bytes, digests, IDNA, the
/// legacy decoders, `navigator`'s facts, `localStorage`'s file, `fetch` over its own HTTP/1.1 client or libsoup) answers
/// through `ExtensionArguments`; `webassembly.js` (on the first read of `WebAssembly`) turns its
/// asynchronous compile (which the C API cannot drive) into a rejection that names the synchronous one. A window's page
/// has WebKit's own web APIs: nothing here runs there.
package enum WebExtension {
  /// The extension, as every headless run of the CLI and an in-process test runtime get it.
  package static func make() -> RuntimeExtension {
    RuntimeExtension(
      name: "web", state: { _ in WebState() },
      globalScripts: [
        .init(name: "web", source: EmbeddedFiles.web_js), .init(name: "web-net", source: EmbeddedFiles.web_net_js),
      ],
      deferredScripts: deferredScripts,
      values: { host in ["timeOrigin": .number(host.timeOrigin)] },
      functions: WebNatives.functions + LocalStorageNatives.functions + FetchNatives.functions,
      hooks: .init(close: { state, _ in
        // Requests still in flight end here (each ends its exchange with an `aborted` failure).
        for exchange in state.fetches.values { exchange.cancel() }
        state.connections.closeAll()
      }))
  }

  /// The files `web.js` registers, evaluated by `native.loadDeferred(name)` on first touch.
  static let deferredScripts: [RuntimeExtension.Script] = [
    .init(name: "events", source: EmbeddedFiles.events_js), .init(name: "abort", source: EmbeddedFiles.abort_js),
    .init(name: "performance", source: EmbeddedFiles.performance_js),
    .init(name: "crypto", source: EmbeddedFiles.crypto_js),
    .init(name: "navigator", source: EmbeddedFiles.navigator_js), .init(name: "url", source: EmbeddedFiles.url_js),
    .init(name: "url-parser", source: EmbeddedFiles.url_parser_js),
    .init(name: "domexception", source: EmbeddedFiles.domexception_js),
    .init(name: "encoding", source: EmbeddedFiles.encoding_js),
    .init(name: "storage", source: EmbeddedFiles.storage_js), .init(name: "blob", source: EmbeddedFiles.blob_js),
    .init(name: "message", source: EmbeddedFiles.message_js), .init(name: "fetch", source: EmbeddedFiles.fetch_js),
    .init(name: "fetch-headers", source: EmbeddedFiles.fetch_headers_js),
    .init(name: "fetch-body", source: EmbeddedFiles.fetch_body_js),
    .init(name: "fetch-request", source: EmbeddedFiles.fetch_request_js),
    .init(name: "webassembly", source: EmbeddedFiles.webassembly_js),
  ]
}

/// What the web APIs keep for one run.
@BridgeActor
package final class WebState {
  /// `localStorage`'s file, opened on first use.
  var localStorageFile: LocalStorageFile?
  /// `fetch` requests in flight, by id.
  var fetches: [Int: HTTPExchange] = [:]
  /// The fetches whose bodies wait unread (holding their connections), oldest first.
  var unreadBodies: [Int] = []
  /// The id the next request gets.
  var nextFetchID = 1
  /// The plain HTTP client's kept-alive connections.
  let connections = HTTPConnectionPool()
  /// Whether libsoup takes every request (read on the first): the environment names a proxy, or
  /// `NBRIDGE_HTTP_CLIENT=libsoup` asks for it.
  lazy var libsoupOnly = environmentNamesAProxy() || getenv("NBRIDGE_HTTP_CLIENT").map { String(cString: $0) } == "libsoup"
}
