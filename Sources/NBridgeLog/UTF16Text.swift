/// JavaScript's UTF-16 as UTF-8 bytes for the terminal (a lone surrogate prints as U+FFFD).
enum UTF16Text {
  static func appendUTF8(_ units: UnsafeBufferPointer<UInt16>, to out: inout [UInt8]) {
    var i = 0
    let n = units.count
    while i < n {
      let u = units[i]
      i += 1
      if u < 0x80 {
        out.append(UInt8(u))
      } else if u < 0x800 {
        out.append(UInt8(0xC0 | (u >> 6)))
        out.append(UInt8(0x80 | (u & 0x3F)))
      } else if u & 0xFC00 == 0xD800, i < n, units[i] & 0xFC00 == 0xDC00 {
        let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[i]) - 0xDC00)
        i += 1
        out += [
          UInt8(0xF0 | (scalar >> 18)), UInt8(0x80 | ((scalar >> 12) & 0x3F)), UInt8(0x80 | ((scalar >> 6) & 0x3F)),
          UInt8(0x80 | (scalar & 0x3F)),
        ]
      } else if u & 0xF800 == 0xD800 {
        out += [0xEF, 0xBF, 0xBD]
      } else {
        out += [UInt8(0xE0 | (u >> 12)), UInt8(0x80 | ((u >> 6) & 0x3F)), UInt8(0x80 | (u & 0x3F))]
      }
    }
  }
}
