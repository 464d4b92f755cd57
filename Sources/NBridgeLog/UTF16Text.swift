/// JavaScript's UTF-16 as UTF-8 bytes: the one walk the terminal's lines and the log's JSON
/// records share, each saying what an ASCII unit and a lone surrogate (which UTF-8 cannot carry)
/// become.
enum UTF16Text {
  /// For the terminal: ASCII as it is, a lone surrogate as U+FFFD.
  static func appendUTF8(_ units: UnsafeBufferPointer<UInt16>, to out: inout [UInt8]) {
    transcode(units, to: &out, ascii: { byte, out in out.append(byte) }, loneSurrogate: { _, out in out += [0xEF, 0xBF, 0xBD] })
  }

  /// Appends `units` as UTF-8, handing each ASCII unit and each lone surrogate to the caller's rule.
  @inline(__always)
  static func transcode(
    _ units: UnsafeBufferPointer<UInt16>, to out: inout [UInt8], ascii: (UInt8, inout [UInt8]) -> Void,
    loneSurrogate: (UInt16, inout [UInt8]) -> Void
  ) {
    var i = 0
    let n = units.count
    while i < n {
      let u = units[i]
      i += 1
      if u < 0x80 {
        ascii(UInt8(u), &out)
      } else if u < 0x800 {
        out.append(UInt8(0xC0 | (u >> 6)))
        out.append(UInt8(0x80 | (u & 0x3F)))
      } else if u & 0xFC00 == 0xD800, i < n, units[i] & 0xFC00 == 0xDC00 {
        let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[i]) - 0xDC00)
        i += 1
        out.append(UInt8(0xF0 | (scalar >> 18)))
        out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (scalar & 0x3F)))
      } else if u & 0xF800 == 0xD800 {
        loneSurrogate(u, &out)
      } else {
        out.append(UInt8(0xE0 | (u >> 12)))
        out.append(UInt8(0x80 | ((u >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (u & 0x3F)))
      }
    }
  }
}
