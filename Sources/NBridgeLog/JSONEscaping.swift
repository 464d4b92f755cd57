/// JSON string escaping straight from JavaScript's UTF-16: a lone surrogate, which UTF-8
/// cannot carry, becomes a `\udxxx` escape, so the viewer's `--json` gives back the very string.
enum JSONEscaping {
  private static let hex = Array("0123456789abcdef".utf8)

  static func append(utf16 units: UnsafeBufferPointer<UInt16>, to out: inout [UInt8]) {
    UTF16Text.transcode(units, to: &out, ascii: appendASCII, loneSurrogate: appendUnicodeEscape)
  }

  static func append(utf8 text: Substring, to out: inout [UInt8]) {
    for byte in text.utf8 {
      if byte < 0x80 { appendASCII(byte, to: &out) } else { out.append(byte) }
    }
  }

  @inline(__always)
  private static func appendASCII(_ byte: UInt8, to out: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
    case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
    case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
    case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
    case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
    case 0..<0x20: appendUnicodeEscape(UInt16(byte), to: &out)
    default: out.append(byte)
    }
  }

  private static func appendUnicodeEscape(_ unit: UInt16, to out: inout [UInt8]) {
    out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
    for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((unit >> UInt16(shift)) & 0xF)]) }
  }

  static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    var magnitude = value.magnitude
    // Digits from the last, into a 20-byte tuple (UInt64's widest).
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &digits) { raw in
      var at = 20
      repeat {
        at -= 1
        raw[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
        magnitude /= 10
      } while magnitude > 0
      out.append(contentsOf: raw[at..<20])
    }
  }
}
