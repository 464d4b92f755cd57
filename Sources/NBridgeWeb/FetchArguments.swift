import Glibc
import NBridgeRuntime

/// What fetch's natives read from their arguments and answer with, built on the core's surface.
extension ExtensionArguments {
  /// Calls `body` with argument `i` as a byte string (`String(value)`, each code unit's low byte:
  /// the Fetch standard's methods, header names and values), NUL-terminated, valid during the call.
  func withByteString<R>(_ i: Int, _ body: (UnsafePointer<CChar>) -> R) -> R {
    withUTF16(i) { units in
      withUnsafeTemporaryAllocation(of: CChar.self, capacity: units.count + 1) { bytes in
        for (n, unit) in units.enumerated() { bytes[n] = CChar(truncatingIfNeeded: unit) }
        bytes[units.count] = 0
        return body(UnsafePointer(bytes.baseAddress!))
      }
    } ?? body("")
  }
}

extension ExtensionResult {
  /// An `ArrayBuffer` holding a copy of `bytes`.
  static func arrayBuffer(copying bytes: UnsafeRawBufferPointer) -> ExtensionResult {
    let copy = malloc(max(bytes.count, 1))!
    if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
    return .arrayBuffer(UnsafeMutableRawBufferPointer(start: copy, count: bytes.count))
  }
}
