import CJavaScriptCore
import Glibc
import NBridgePlugin

/// The native floor of the web APIs in `JS/`: what the prelude cannot do in JavaScript (random
/// bytes, digests, IDNA). Each function takes and returns plain values or `Uint8Array`s; the
/// semantics (argument checks, Promises, errors) stay in the JS files.
enum WebNatives {
  /// The functions added to the prelude's `internal.native`.
  static let functions: [(String, JSObjectCallAsFunctionCallback)] = [
    ("randomFill", randomFill), ("digest", digest), ("domainToASCII", domainToASCII), ("systemInfo", systemInfo),
    ("loadDeferred", loadDeferred), ("legacyDecode", legacyDecode),
  ]
}

/// The bytes of a typed array (any kind), or nil for another value.
@BridgeActor
private func typedBytes(_ js: JSContext, _ value: JSValueRef?) -> UnsafeMutableRawBufferPointer? {
  guard let object = js.object(value) else { return nil }
  guard JSValueGetTypedArrayType(js.ref, object, nil) != kJSTypedArrayTypeNone,
    JSValueGetTypedArrayType(js.ref, object, nil) != kJSTypedArrayTypeArrayBuffer
  else { return nil }
  let count = JSObjectGetTypedArrayByteLength(js.ref, object, nil)
  guard count > 0, let base = JSObjectGetTypedArrayBytesPtr(js.ref, object, nil) else {
    return UnsafeMutableRawBufferPointer(start: nil, count: 0)
  }
  return UnsafeMutableRawBufferPointer(start: base + JSObjectGetTypedArrayByteOffset(js.ref, object, nil), count: count)
}

/// `randomFill(view)`: fills a typed array with random bytes.
private let randomFill: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    if let bytes = typedBytes(runtime.js, args[0]), bytes.count > 0 { RandomBytes.fill(bytes) }
    return nil
  }
}

/// `digest(kind, input, output)`: writes the SHA digest of `input` into `output`; returns whether it did.
private let digest: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let kind = Int(saturating: JSValueToNumber(runtime.js.ref, args[0], nil))
    guard let input = typedBytes(runtime.js, args[1]), let output = typedBytes(runtime.js, args[2]) else {
      return JSValueMakeBoolean(runtime.js.ref, false)
    }
    let done = Digest.compute(kind: kind, input: UnsafeRawBufferPointer(input), output: output)
    return JSValueMakeBoolean(runtime.js.ref, done)
  }
}

/// `domainToASCII(domain)`: the UTS #46 ToASCII of a host (ICU), or null when it is not a valid domain.
private let domainToASCII: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    guard let ascii = IDNA.toASCII(runtime.js.toString(args[0])) else { return JSValueMakeNull(runtime.js.ref) }
    return runtime.js.string(ascii)
  }
}

/// `systemInfo()`: what `navigator` reports: the locale's language tag and the online CPU count.
private let systemInfo: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, _ in
    let env = runtime.configuration.environment
    let locale = [env["LC_ALL"], env["LC_MESSAGES"], env["LANG"]].compactMap { $0 }.first { !$0.isEmpty }
    return runtime.js.value([
      "locale": .string(locale ?? ""),
      "cpus": .number(Double(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))),
    ])
  }
}

/// `loadDeferred(name)`: evaluates a deferred prelude file (`PreludeSource.deferred`, else an
/// extension's `nbridgeScripts` or `deferredScripts`) and returns its function.
private let loadDeferred: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args throws(JSException) in
    let name = runtime.js.toString(args[0])
    guard
      let source = PreludeSource.deferred[name] ?? runtime.extensionScripts.first(where: { $0.name == name })?.source
        ?? runtime.extensionDeferredScript(name)?.source
    else { return JSValueMakeUndefined(runtime.js.ref) }
    return try runtime.js.evaluate(String(decoding: source, as: UTF8.self), url: "nbridge:\(name).js")
  }
}

/// `legacyDecode(charset, bytes, flush, fatal, kind)`: `[text, bytesUsed]` decoded by
/// `LegacyDecoder` (kind 0: multi-byte, 1: single-byte, 2: a windows single-byte code page), or
/// null when `fatal` and the bytes are not valid (or no converter exists).
private let legacyDecode: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let js = runtime.js
    let bytes = UnsafeRawBufferPointer(typedBytes(js, args[1]) ?? UnsafeMutableRawBufferPointer(start: nil, count: 0))
    let charset = js.toString(args[0])
    let fatal = JSValueToBoolean(js.ref, args[3])
    let kind = Int(saturating: JSValueToNumber(js.ref, args[4], nil))
    let decoded: (units: [UInt16], used: Int)?
    if kind == 0 {
      decoded = LegacyDecoder.decode(charset: charset, bytes: bytes, flush: JSValueToBoolean(js.ref, args[2]), fatal: fatal)
    } else {
      decoded = LegacyDecoder.decodeSingleByte(charset: charset, bytes: bytes, fatal: fatal, windowsC1: kind == 2)
        .map { ($0, bytes.count) }
    }
    guard let decoded else { return JSValueMakeNull(js.ref) }
    let text = decoded.units.withUnsafeBufferPointer { JSStringCreateWithCharacters($0.baseAddress, $0.count) }
    defer { JSStringRelease(text) }
    var kept = KeptValues(in: js.ref)
    kept.append(JSValueMakeString(js.ref, text))
    kept.append(JSValueMakeNumber(js.ref, Double(decoded.used)))
    return kept.values.withUnsafeBufferPointer { JSObjectMakeArray(js.ref, 2, $0.baseAddress, nil) }
  }
}
