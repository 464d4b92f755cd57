/// Where JSON string content needs no escaping, found a 64-bit word at a time: the scan of a
/// string's quote, backslash and control characters is most of the cost of reading and writing
/// the JSON text of a call's options, and most strings have none of them.
package enum PlainText {
  /// The length of the longest prefix of `bytes` (UTF-8) that JSON writes between quotes as it is:
  /// no quote, no backslash, no control character.
  package static func plainPrefix(_ bytes: UnsafeBufferPointer<UInt8>) -> Int { plainRun(bytes, from: 0).end }

  /// From `start`, the end of the run of `units` that holds no quote, backslash or control
  /// character, and whether every unit of the run is ASCII. Eight bytes are checked together
  /// (four UTF-16 units) with the "has a lane below n" test: `(w - n·ones) & ~w & highs` is
  /// non-zero exactly when some lane of `w` is below `n` (a borrow reaches a higher lane only from
  /// a lane that was below `n`), and a lane equal to `c` is one where `w ^ c·ones` is below 1.
  @inline(__always)
  static func plainRun<Unit: FixedWidthInteger & UnsignedInteger>(
    _ units: UnsafeBufferPointer<Unit>, from start: Int
  ) -> (end: Int, ascii: Bool) {
    var i = start
    var ascii = true
    if let base = units.baseAddress {
      let step = 8 / MemoryLayout<Unit>.size
      let ones: UInt64 = Unit.bitWidth == 16 ? 0x0001_0001_0001_0001 : 0x0101_0101_0101_0101
      let highs: UInt64 = Unit.bitWidth == 16 ? 0x8000_8000_8000_8000 : 0x8080_8080_8080_8080
      let nonASCII: UInt64 = Unit.bitWidth == 16 ? 0xFF80_FF80_FF80_FF80 : 0x8080_8080_8080_8080
      let raw = UnsafeRawPointer(base)
      while i + step <= units.count {
        let w = raw.loadUnaligned(fromByteOffset: i * MemoryLayout<Unit>.size, as: UInt64.self)
        let quote = w ^ (ones &* 0x22)
        let backslash = w ^ (ones &* 0x5C)
        let special =
          ((w &- ones &* 0x20) & ~w) | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
        if special & highs != 0 { break }
        if w & nonASCII != 0 { ascii = false }
        i += step
      }
    }
    while i < units.count {
      let unit = units[i]
      if unit == 0x22 || unit == 0x5C || unit < 0x20 { break }
      if unit >= 0x80 { ascii = false }
      i += 1
    }
    return (i, ascii)
  }
}
