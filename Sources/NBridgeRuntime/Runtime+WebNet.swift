import CJavaScriptCore
import Glibc
import NBridgePlugin

/// The native floor of `fetch`: the JS semantics live in `JS/fetch.js`.
extension Runtime {
  /// The native functions these add to the prelude's `native`.
  static let webNetFunctions: [(String, JSObjectCallAsFunctionCallback)] = [
    ("source", nativeSource), ("http", nativeHTTP), ("httpCancel", nativeHTTPCancel),
    ("httpRead", nativeHTTPRead), ("appFile", nativeAppFile), ("encodeUTF8", nativeEncodeUTF8),
    ("decodeUTF8", nativeDecodeUTF8),
  ]

  /// The JS files evaluated on first touch of one of their globals, by name (the web
  /// extension's deferred files the same way).
  static let lazySources: [String: [UInt8]] = ["fetch": PackageResources.fetch_js]

  /// The permission that guards `fetch` to `http:` and `https:` URLs.
  static let networkPermission = RuntimeConfiguration.runtimePermissions[0].name

  /// A JS `Error` with `message`, to throw from a native function.
  func thrownError(_ message: String) -> JSException {
    var argument: JSValueRef? = js.string(message)
    return JSException(value: JSObjectMakeError(js.ref, 1, &argument, nil) ?? JSValueMakeUndefined(js.ref))
  }
}

private let nativeSource: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let name = runtime.js.toString(args[0])
    guard let bytes = Runtime.lazySources[name] ?? runtime.extensionScript(named: name)?.source else { return nil }
    return runtime.js.string(String(decoding: bytes, as: UTF8.self))
  }
}

/// `http(method, url, headers, body, userAgent, handler)`: the request's id, or 0 when the
/// `network` permission is not granted (nothing is sent).
private let nativeHTTP: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let ctx = runtime.js.ref
    guard runtime.configuration.allows(permission: Runtime.networkPermission) else { return JSValueMakeNumber(ctx, 0) }
    guard let handler = runtime.js.object(args[5]) else { return JSValueMakeNumber(ctx, 0) }
    var body: UnsafeRawBufferPointer?
    if let value = args[3], JSValueGetTypedArrayType(ctx, value, nil) == kJSTypedArrayTypeArrayBuffer,
      let buffer = JSValueToObject(ctx, value, nil)
    {
      body = UnsafeRawBufferPointer(
        start: JSObjectGetArrayBufferBytesPtr(ctx, buffer, nil), count: JSObjectGetArrayBufferByteLength(ctx, buffer, nil))
    }
    let id = runtime.nextFetchID
    runtime.nextFetchID += 1
    let exchange = HTTPExchange(id: id, runtime: runtime, handler: handler)
    runtime.fetches[id] = exchange
    let js = runtime.js
    js.withByteString(args[0]) { method in
      js.withByteString(args[1]) { url in
        js.withByteString(args[2]) { headers in
          js.withByteString(args[4]) { agent in
            exchange.start(method: method, url: url, headers: headers, body: body, userAgent: agent)
          }
        }
      }
    }
    return JSValueMakeNumber(ctx, Double(id))
  }
}

private let nativeHTTPCancel: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    if let id = Int(exactly: JSValueToNumber(runtime.js.ref, args[0], nil)) { runtime.fetches[id]?.cancel() }
    return nil
  }
}

/// `httpRead(id)`: reads the response body to its end (it reaches the request's handler whole).
private let nativeHTTPRead: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    if let id = Int(exactly: JSValueToNumber(runtime.js.ref, args[0], nil)) { runtime.fetches[id]?.consume() }
    return nil
  }
}

/// `appFile(path)`: `[arrayBuffer, contentType]` for a file in the entry script's folder, null
/// when it is missing there, undefined when the path lies outside the folder.
private let nativeAppFile: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let ctx = runtime.js.ref
    guard let (lexical, folder) = runtime.readableFolder ?? runtime.entryFolder, let folder else {
      return JSValueMakeUndefined(ctx)
    }
    switch folder.lookUp(absolutePath: runtime.js.toString(args[0]), alias: lexical) {
    case .outside: return JSValueMakeUndefined(ctx)
    case .missing, .notRegular: return JSValueMakeNull(ctx)
    case .file(let path):
      guard let bytes = PageFolder.contents(of: path) else { return JSValueMakeNull(ctx) }
      let copy = malloc(max(bytes.count, 1))!
      bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
      let buffer = JSObjectMakeArrayBufferWithBytesNoCopy(ctx, copy, bytes.count, freeBytes, nil, nil)
      var kept = KeptValues(in: ctx)
      kept.append(buffer)
      kept.append(runtime.js.string(PageFolder.mimeType(of: path)))
      return kept.values.withUnsafeBufferPointer { JSObjectMakeArray(ctx, 2, $0.baseAddress, nil) }
    }
  }
}

/// `encodeUTF8(string)`: an ArrayBuffer of the string's UTF-8 (a lone surrogate becomes U+FFFD).
private let nativeEncodeUTF8: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let ctx = runtime.js.ref
    var text = ""
    if let value = args[0], let string = JSValueToStringCopy(ctx, value, nil) {
      text = String(decoding: UnsafeBufferPointer(start: JSStringGetCharactersPtr(string), count: JSStringGetLength(string)), as: UTF16.self)
      JSStringRelease(string)
    }
    let copy = text.withUTF8 { utf8 in
      let copy = malloc(max(utf8.count, 1))!
      if let base = utf8.baseAddress { copy.copyMemory(from: base, byteCount: utf8.count) }
      return (copy, utf8.count)
    }
    return JSObjectMakeArrayBufferWithBytesNoCopy(ctx, copy.0, copy.1, freeBytes, nil, nil)
  }
}

/// `decodeUTF8(bytes)`: the text of a Uint8Array or ArrayBuffer by the Encoding Standard's UTF-8
/// decode (a leading BOM dropped, each maximal invalid subpart one U+FFFD).
private let nativeDecodeUTF8: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    guard let buffer = runtime.js.bufferBytes(args[0]), let base = buffer.baseAddress, buffer.count > 0 else {
      return runtime.js.string("")
    }
    var bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: buffer.count)
    let count = buffer.count
    if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { bytes = UnsafeBufferPointer(rebasing: bytes[3...]) }
    return runtime.js.string(String(decoding: bytes, as: UTF8.self))
  }
}

/// Frees a malloc'd ArrayBuffer store. Defined here, outside any actor: JavaScriptCore calls it
/// from whichever thread collects the buffer (a closure written inside `@BridgeActor` code would
/// be isolated to it, and Swift stops the process when it runs elsewhere).
let freeBytes: JSTypedArrayBytesDeallocator = { bytes, _ in free(bytes) }
