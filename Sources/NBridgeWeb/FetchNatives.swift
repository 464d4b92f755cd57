import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The native floor of `fetch` (`JS/fetch.js`) and of the UTF-8 its bodies and `Blob` use: the
/// requests through libsoup (`HTTPExchange`), the app's own files for relative and `file:` URLs.
enum FetchNatives {
  /// The functions added to the prelude's `internal.native`.
  static let functions: [RuntimeExtension.Function<WebState>] = [
    .init("http", result: http), .init("httpCancel", result: httpCancel), .init("httpRead", result: httpRead),
    .init("appFile", result: appFile), .init("encodeUTF8", result: encodeUTF8), .init("decodeUTF8", result: decodeUTF8),
  ]

  /// The permission that guards `fetch` to `http:` and `https:` URLs.
  static let networkPermission = RuntimeConfiguration.runtimePermissions[0].name

  /// `http(method, url, headers, body, userAgent, handler)`: the request's id, or 0 when the
  /// `network` permission is not granted (nothing is sent).
  @BridgeActor static func http(_ state: WebState, _ host: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    guard host.configuration.allows(permission: networkPermission), let handler = args.callback(5) else {
      return .json(.number(0))
    }
    let id = state.nextFetchID
    state.nextFetchID += 1
    let exchange = HTTPExchange(id: id, host: host, state: state, handler: handler)
    state.fetches[id] = exchange
    let start = { (body: UnsafeRawBufferPointer?) in
      args.withByteString(0) { method in
        args.withByteString(1) { url in
          args.withByteString(2) { headers in
            args.withByteString(4) { agent in
              exchange.start(method: method, url: url, headers: headers, body: body, userAgent: agent)
            }
          }
        }
      }
    }
    if args.withBytes(3, { start(UnsafeRawBufferPointer($0)) }) == nil { start(nil) }
    return .json(.number(Double(id)))
  }

  /// `httpCancel(id)`: cancels a request; it ends with an `aborted` failure unless it has ended.
  @BridgeActor static func httpCancel(_ state: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    if let id = Int(exactly: args.number(0)) { state.fetches[id]?.cancel() }
    return nil
  }

  /// `httpRead(id)`: reads the response body to its end (it reaches the request's handler whole).
  @BridgeActor static func httpRead(_ state: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    if let id = Int(exactly: args.number(0)) { state.fetches[id]?.consume() }
    return nil
  }

  /// `appFile(path)`: `[arrayBuffer, contentType]` for a file in the entry script's folder, null
  /// when it is missing there, undefined when the path lies outside the folder.
  @BridgeActor static func appFile(_: WebState, _ host: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    guard let (lexical, folder) = host.readableFolder, let folder, let path = args.string(0) else { return nil }
    switch folder.lookUp(absolutePath: path, alias: lexical) {
    case .outside: return nil
    case .missing, .notRegular: return .json(.null)
    case .file(let path):
      guard let bytes = PageFolder.contents(of: path) else { return .json(.null) }
      let buffer = bytes.withUnsafeBytes { ExtensionResult.arrayBuffer(copying: $0) }
      return .array([buffer, .json(.string(PageFolder.mimeType(of: path)))])
    }
  }

  /// `encodeUTF8(string)`: an ArrayBuffer of the string's UTF-8 (a lone surrogate becomes U+FFFD).
  @BridgeActor static func encodeUTF8(_: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    var text = args.withUTF16(0) { String(decoding: $0, as: UTF16.self) } ?? ""
    return text.withUTF8 { ExtensionResult.arrayBuffer(copying: UnsafeRawBufferPointer($0)) }
  }

  /// `decodeUTF8(bytes)`: the text of a Uint8Array or ArrayBuffer by the Encoding Standard's UTF-8
  /// decode (a leading BOM dropped, each maximal invalid subpart one U+FFFD).
  @BridgeActor static func decodeUTF8(_: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    let text = args.withBytes(0) { buffer -> String in
      guard let base = buffer.baseAddress, buffer.count > 0 else { return "" }
      var bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: buffer.count)
      if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
        bytes = UnsafeBufferPointer(rebasing: bytes[3...])
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    return .json(.string(text ?? ""))
  }
}
