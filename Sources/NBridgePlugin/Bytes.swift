#if canImport(Glibc)
  import Glibc
#endif

/// Bytes that cross the bridge: a `Uint8Array` in JavaScript, Base64 text in the JSON between.
///
/// Declare the field or result as `Shape.bytes`: the bridge turns a script's `Uint8Array` (or
/// `ArrayBuffer`, or another view) in a top-level options field of that shape into Base64, and a
/// result of that shape back into a `Uint8Array`, so a plugin only ever sees `Bytes`.
///
/// Bytes made with `init(unsafeUninitializedCapacity:initializingWith:)` live in memory of their
/// own, which a synchronous action returning them hands to JavaScript whole: in a headless run the
/// `Uint8Array` owns that memory, no byte is copied (what `fs.readFile` does with a file it reads).
public struct Bytes: Sendable, Hashable, Codable {
  /// The bytes when made from an array (empty when `store` holds them).
  private var array: [UInt8]
  /// The bytes when made in memory of their own (nil when `array` holds them).
  private var store: ByteStore?

  /// The bytes themselves, in order (a copy when they live in memory of their own).
  public var bytes: [UInt8] {
    get { store.map { Array($0.buffer) } ?? array }
    set {
      array = newValue
      store = nil
    }
  }

  /// The number of bytes.
  public var count: Int { store?.count ?? array.count }

  /// Bytes holding a copy of `bytes`.
  public init(_ bytes: [UInt8]) {
    array = bytes
    store = nil
  }

  /// Bytes written in place, as `Array.init(unsafeUninitializedCapacity:initializingWith:)`:
  /// `initializer` gets room for `capacity` bytes and sets `initializedCount` to how many it
  /// wrote (from the start). Read a file straight into them and no byte is copied on its way to
  /// JavaScript. A throw frees the room and is rethrown.
  public init<E: Error>(
    unsafeUninitializedCapacity capacity: Int,
    initializingWith initializer: (
      _ buffer: inout UnsafeMutableBufferPointer<UInt8>, _ initializedCount: inout Int
    ) throws(E) -> Void
  ) throws(E) {
    precondition(capacity >= 0, "a negative capacity")
    let block = BlockPool.take(capacity)
    var buffer = UnsafeMutableBufferPointer(
      start: block.base.bindMemory(to: UInt8.self, capacity: block.size), count: capacity)
    var count = 0
    do throws(E) {
      try initializer(&buffer, &count)
    } catch {
      BlockPool.give(block.base, size: block.size)
      throw error
    }
    precondition(count >= 0 && count <= capacity, "initializedCount out of 0...capacity")
    array = []
    store = ByteStore(base: block.base, count: count, size: block.size)
  }

  /// Calls `body` with the bytes, wherever they live.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    if let store { return try body(store.buffer) }
    return try array.withUnsafeBytes(body)
  }

  /// Decodes Base64 text; a string that is not Base64 is a `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let bytes = Base64Text.decode(text) else {
      let field = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
      throw BridgeError.invalidParameter(
        field.isEmpty ? "options" : field, "must be a Uint8Array (or Base64 text), got a string that is not Base64")
    }
    self.init(bytes)
  }

  /// Encodes as Base64 text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(withUnsafeBytes { Base64Text.encode($0) })
  }

  /// Equal when they hold the same bytes in the same order, wherever they live.
  public static func == (lhs: Bytes, rhs: Bytes) -> Bool {
    lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in left.elementsEqual(right) } }
  }

  /// Hashes the bytes, as `[UInt8]` would.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    withUnsafeBytes { hasher.combine(bytes: $0) }
  }
}

extension Bytes {
  /// The bytes as one buffer whose owner the caller becomes: the bytes' own memory
  /// when nothing else shares it (no copy), else a copy of them. Release the store to free it.
  package consuming func takeStore() -> ByteStore {
    if store != nil, isKnownUniquelyReferenced(&store!) { return store! }
    return withUnsafeBytes { raw in
      let block = BlockPool.take(raw.count)
      if let source = raw.baseAddress { block.base.copyMemory(from: source, byteCount: raw.count) }
      return ByteStore(base: block.base, count: raw.count, size: block.size)
    }
  }
}

/// Bytes in memory of their own (a `BlockPool` block), given back with the object; never
/// written once made, so it is shared freely (its memory is written only by whoever took it as
/// its only owner).
package final class ByteStore: @unchecked Sendable {
  /// The first byte (a valid pointer even for no bytes).
  package let base: UnsafeMutableRawPointer
  /// How many bytes.
  package let count: Int
  /// The block's size, `count` or more.
  private let size: Int

  init(base: UnsafeMutableRawPointer, count: Int, size: Int) {
    self.base = base
    self.count = count
    self.size = size
  }

  deinit { BlockPool.give(base, size: size) }

  /// The bytes as a buffer.
  var buffer: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }
}

/// Standard Base64 (RFC 4648, `=` padding, no line breaks), on byte buffers.
package enum Base64Text {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
    return table
  }()

  /// `bytes` as Base64 text.
  package static func encode(_ bytes: [UInt8]) -> String { bytes.withUnsafeBytes { encode($0) } }

  /// The bytes of `raw` as Base64 text.
  package static func encode(_ raw: UnsafeRawBufferPointer) -> String {
    let count = (raw.count + 2) / 3 * 4
    return String(unsafeUninitializedCapacity: count) { out in
      let input = raw
      alphabet.withUnsafeBufferPointer { digits in
        var i = 0
        var o = 0
        while i + 3 <= input.count {
          let group = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
          out[o] = digits[Int(group >> 18)]
          out[o + 1] = digits[Int(group >> 12 & 63)]
          out[o + 2] = digits[Int(group >> 6 & 63)]
          out[o + 3] = digits[Int(group & 63)]
          i += 3
          o += 4
        }
        let left = input.count - i
        if left > 0 {
          let group = UInt32(input[i]) << 16 | (left == 2 ? UInt32(input[i + 1]) << 8 : 0)
          out[o] = digits[Int(group >> 18)]
          out[o + 1] = digits[Int(group >> 12 & 63)]
          out[o + 2] = left == 2 ? digits[Int(group >> 6 & 63)] : UInt8(ascii: "=")
          out[o + 3] = UInt8(ascii: "=")
        }
      }
      return count
    }
  }

  /// The bytes of Base64 `text` (padding optional), or nil when it is not Base64.
  package static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { input -> [UInt8]? in
      guard let count = digitCount(input) else { return nil }
      guard count > 0 else { return [] }
      var invalid = false
      let output = [UInt8](unsafeUninitializedCapacity: count * 3 / 4) { out, written in
        let decoded = decode(input, digits: count, into: out.baseAddress!)
        invalid = decoded == nil
        written = decoded ?? 0
      }
      return invalid ? nil : output
    }
  }

  /// How many Base64 digits `units` (UTF-8 or UTF-16) holds once its padding (at most two `=`) is
  /// taken off; nil when no Base64 text has its length.
  package static func digitCount<Unit: FixedWidthInteger & UnsignedInteger>(_ units: UnsafeBufferPointer<Unit>) -> Int? {
    var end = units.count
    while end > 0, units[end - 1] == Unit(UInt8(ascii: "=")) { end -= 1 }
    return units.count - end <= 2 && end % 4 != 1 ? end : nil
  }

  /// Writes the bytes of the first `count` digits of `units` to `out`, which has room for
  /// `count * 3 / 4`; how many it wrote, or nil at a unit that is not a Base64 digit.
  package static func decode<Unit: FixedWidthInteger & UnsignedInteger>(
    _ units: UnsafeBufferPointer<Unit>, digits count: Int, into out: UnsafeMutablePointer<UInt8>
  ) -> Int? {
    values.withUnsafeBufferPointer { table -> Int? in
      var group: UInt32 = 0
      var o = 0
      for i in 0..<count {
        let unit = Int(units[i])
        guard unit < 256 else { return nil }
        let value = table[unit]
        guard value != 0xFF else { return nil }
        group = group << 6 | UInt32(value)
        if i & 3 == 3 {
          out[o] = UInt8(truncatingIfNeeded: group >> 16)
          out[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
          out[o + 2] = UInt8(truncatingIfNeeded: group)
          o += 3
          group = 0
        }
      }
      switch count & 3 {
      case 2:
        out[o] = UInt8(truncatingIfNeeded: group >> 4)
        o += 1
      case 3:
        out[o] = UInt8(truncatingIfNeeded: group >> 10)
        out[o + 1] = UInt8(truncatingIfNeeded: group >> 2)
        o += 2
      default: break
      }
      return o
    }
  }
}
