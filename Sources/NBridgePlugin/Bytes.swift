/// Bytes that cross the bridge: a `Uint8Array` in JavaScript, Base64 text in the JSON between.
///
/// Declare the field or result as `Shape.bytes`: the bridge turns a script's `Uint8Array` (or
/// `ArrayBuffer`, or another view) in a top-level options field of that shape into Base64, and a
/// result of that shape back into a `Uint8Array`, so a plugin only ever sees `Bytes`.
public struct Bytes: Sendable, Hashable, Codable {
  /// The bytes themselves, in order.
  public var bytes: [UInt8]

  /// Bytes holding a copy of `bytes`.
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Decodes Base64 text; a string that is not Base64 is a `DecodingError` naming the field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let text = try container.decode(String.self)
    guard let bytes = Base64Text.decode(text) else {
      let field = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
      throw BridgeError.invalidParameter(
        field.isEmpty ? "options" : field, "must be a Uint8Array (or Base64 text), got a string that is not Base64")
    }
    self.bytes = bytes
  }

  /// Encodes as Base64 text.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(Base64Text.encode(bytes))
  }
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
  package static func encode(_ bytes: [UInt8]) -> String {
    let count = (bytes.count + 2) / 3 * 4
    return String(unsafeUninitializedCapacity: count) { out in
      bytes.withUnsafeBufferPointer { input in
        alphabet.withUnsafeBufferPointer { digits in
          var i = 0, o = 0
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
      }
      return count
    }
  }

  /// The bytes of Base64 `text` (padding optional), or nil when it is not Base64.
  package static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { input -> [UInt8]? in
      var end = input.count
      while end > 0, input[end - 1] == UInt8(ascii: "=") { end -= 1 }
      guard input.count - end <= 2, end % 4 != 1 else { return nil }
      var invalid = false
      let output = [UInt8](unsafeUninitializedCapacity: end * 3 / 4) { out, written in
        var o = 0
        values.withUnsafeBufferPointer { table in
          var group: UInt32 = 0
          for i in 0..<end {
            let value = table[Int(input[i])]
            if value == 0xFF {
              invalid = true
              break
            }
            group = group << 6 | UInt32(value)
            if i & 3 == 3 {
              out[o] = UInt8(truncatingIfNeeded: group >> 16)
              out[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
              out[o + 2] = UInt8(truncatingIfNeeded: group)
              o += 3
              group = 0
            }
          }
          if !invalid {
            switch end & 3 {
            case 2:
              out[o] = UInt8(truncatingIfNeeded: group >> 4)
              o += 1
            case 3:
              out[o] = UInt8(truncatingIfNeeded: group >> 10)
              out[o + 1] = UInt8(truncatingIfNeeded: group >> 2)
              o += 2
            default: break
            }
          }
        }
        written = invalid ? 0 : o
      }
      return invalid ? nil : output
    }
  }
}
