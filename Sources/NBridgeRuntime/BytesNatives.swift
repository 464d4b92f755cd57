import CJavaScriptCore
import Glibc
import NBridgePlugin

/// `Shape.bytes` on the bridge: a result's Base64 text turned into a `Uint8Array`, and a typed
/// array in the options turned into Base64 text, without a JavaScript loop over the bytes.
enum BytesNatives {
  /// The functions added to the prelude's `internal.native`.
  static let functions: [NativeFunction] = [
    // `base64ToBytes(text)`: a `Uint8Array` of the bytes Base64 `text` holds (what the plugin's
    // `Bytes` wrote), or null when it is not Base64.
    .init(name: "base64ToBytes") { runtime, args in
      let ctx = runtime.js.ref
      guard let value = args[0], JSValueIsString(ctx, value), let text = JSValueToStringCopy(ctx, value, nil) else {
        return JSValueMakeNull(ctx)
      }
      defer { JSStringRelease(text) }
      guard let start = JSStringGetCharactersPtr(text) else { return JSValueMakeNull(ctx) }
      let units = UnsafeBufferPointer(start: start, count: JSStringGetLength(text))
      guard let end = Base64Text.digitCount(units) else { return JSValueMakeNull(ctx) }
      let capacity = end * 3 / 4
      let out = malloc(max(capacity, 1))!.assumingMemoryBound(to: UInt8.self)
      guard Base64Text.decode(units, digits: end, into: out) != nil else {
        free(out)
        return JSValueMakeNull(ctx)
      }
      return JSObjectMakeTypedArrayWithBytesNoCopy(ctx, kJSTypedArrayTypeUint8Array, out, capacity, freeBytes, nil, nil)
    },
    // `bytesToBase64(view)`: the Base64 text of a typed array, `DataView` or `ArrayBuffer`; null for another value.
    .init(name: "bytesToBase64") { runtime, args in
      guard let buffer = runtime.js.bufferBytes(args[0]) else { return JSValueMakeNull(runtime.js.ref) }
      return runtime.js.string(buffer.count > 0 ? Base64Text.encode(buffer) : "")
    },
  ]
}

extension JSContext {
  /// A `Uint8Array` over `store`'s memory, no byte copied: the array owns the store, released
  /// when the collector frees the array. Nothing else may write the store's memory.
  func uint8Array(adopting store: ByteStore) -> JSValueRef {
    let owner = Unmanaged.passRetained(store).toOpaque()
    return JSObjectMakeTypedArrayWithBytesNoCopy(
      ref, kJSTypedArrayTypeUint8Array, store.base, store.count, releaseStore, owner, nil)
  }
}

/// Frees a `ByteStore` a typed array owned, once the collector is done with the array.
private let releaseStore: JSTypedArrayBytesDeallocator = { _, owner in
  guard let owner else { return }
  Unmanaged<ByteStore>.fromOpaque(owner).release()
}

/// Frees a malloc'd ArrayBuffer store. Defined here, outside any actor: JavaScriptCore calls it
/// from whichever thread collects the buffer (a closure written inside `@BridgeActor` code would
/// be isolated to it, and Swift stops the process when it runs elsewhere).
let freeBytes: JSTypedArrayBytesDeallocator = { bytes, _ in free(bytes) }
