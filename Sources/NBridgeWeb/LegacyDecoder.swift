import Glibc
import NBridgePlugin

/// The Encoding Standard's legacy encodings (windows-1252, Shift_JIS, Big5, ...) decoded for
/// `TextDecoder` through glibc's `iconv(3)`, which knows every one of them; the labels and the
/// choice of decoder stay in `JS/encoding.js`.
///
/// A single-byte encoding is a 256-entry table, made once from `iconv` a byte at a time and
/// brought to the Encoding Standard's index where glibc differs: the windows code pages' C1
/// bytes that glibc leaves undefined (0x81 in windows-1252, ...) are the same code points, and
/// `overrides` holds the few characters the tables disagree on (every byte of the 28
/// single-byte encodings then decodes as Deno's and a page's do). A multi-byte encoding goes
/// through `iconv` as it is: a byte it cannot convert becomes U+FFFD (or ends the decode when
/// `fatal`) and decoding goes on with the next byte; a sequence cut off at the end is left
/// unconsumed for the next chunk of a stream, or is U+FFFD at the end of one.
@BridgeActor
enum LegacyDecoder {
  /// Open converters by charset, reset before each use (the run's one thread uses them).
  private static var converters: [String: iconv_t] = [:]
  /// Single-byte tables by charset; `undefined` marks a byte with no character.
  private static var tables: [String: [UInt16]] = [:]
  private static let undefined: UInt16 = 0xFFFF

  /// Where glibc's single-byte tables and the Encoding Standard's indexes disagree.
  private static let overrides: [String: [UInt8: UInt16]] = [
    // The standard's KOI8-U has KOI8-RU's Belarusian short u.
    "KOI8-U": [0xAE: 0x045E, 0xBE: 0x040E],
    // INCREMENT for the Greek capital delta, and the Apple logo in the private use area.
    "MACINTOSH": [0xC6: 0x2206, 0xF0: 0xF8FF],
    // HEBREW POINT HOLAM HASER FOR VAV, which glibc's CP1255 lacks.
    "CP1255": [0xCA: 0x05BA],
    // The euro sign where Mac OS 9 put it.
    "MAC-CYRILLIC": [0xFF: 0x20AC],
  ]

  /// UTF-16 code units of `bytes` in the single-byte encoding `charset`; nil when `fatal` and a
  /// byte has no character, or when glibc has no converter for `charset`.
  static func decodeSingleByte(charset: String, bytes: UnsafeRawBufferPointer, fatal: Bool, windowsC1: Bool)
    -> [UInt16]?
  {
    guard let table = table(for: charset, windowsC1: windowsC1) else { return nil }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count)
    for byte in bytes {
      let unit = table[Int(byte)]
      if unit != undefined {
        units.append(unit)
      } else if fatal {
        return nil
      } else {
        units.append(0xFFFD)
      }
    }
    return units
  }

  private static func table(for charset: String, windowsC1: Bool) -> [UInt16]? {
    if let table = tables[charset] { return table }
    guard let converter = converter(for: charset) else { return nil }
    var table = [UInt16](repeating: undefined, count: 256)
    for byte in 0..<256 {
      var input = [CChar(bitPattern: UInt8(byte))]
      var output: [UInt16] = [0, 0]
      _ = iconv(converter, nil, nil, nil, nil)
      let written = input.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBytes { out -> Int in
          var inputPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
          var inputLeft = 1
          var outputPointer: UnsafeMutablePointer<CChar>? = out.baseAddress!.assumingMemoryBound(to: CChar.self)
          var outputLeft = out.count
          guard iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft) != -1 else { return 0 }
          // CP1255 and CP1258 hold a base letter back for a combining mark that may follow.
          _ = iconv(converter, nil, nil, &outputPointer, &outputLeft)
          return (out.count - outputLeft) / 2
        }
      }
      if written == 1 {
        table[byte] = output[0]
      } else if windowsC1 && (0x80...0x9F).contains(byte) {
        table[byte] = UInt16(byte)
      }
    }
    for (byte, unit) in overrides[charset] ?? [:] { table[Int(byte)] = unit }
    tables[charset] = table
    return table
  }

  /// UTF-16 code units of `bytes` in the multi-byte encoding `charset`, and how many bytes were
  /// used; nil when `fatal` and the bytes are not valid, or when glibc has no converter for it.
  static func decode(charset: String, bytes: UnsafeRawBufferPointer, flush: Bool, fatal: Bool)
    -> (units: [UInt16], used: Int)?
  {
    guard let converter = converter(for: charset) else { return nil }
    _ = iconv(converter, nil, nil, nil, nil)
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count)
    var output = [UInt16](repeating: 0, count: 4096)
    var offset = 0
    while offset < bytes.count {
      var input = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: CChar.self)) + offset
      var inputLeft = bytes.count - offset
      let (result, written, failure) = output.withUnsafeMutableBytes { out -> (Int, Int, Int32) in
        var outputPointer: UnsafeMutablePointer<CChar>? = out.baseAddress!.assumingMemoryBound(to: CChar.self)
        var outputLeft = out.count
        var inputPointer: UnsafeMutablePointer<CChar>? = input
        let result = iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft)
        input = inputPointer!
        return (result, (out.count - outputLeft) / 2, result == -1 ? errno : 0)
      }
      units.append(contentsOf: output[0..<written])
      offset = bytes.count - inputLeft
      guard result == -1 else { break }
      switch failure {
      case E2BIG:
        continue
      case EINVAL where !flush:
        return (units, offset)
      default:
        if fatal { return nil }
        units.append(0xFFFD)
        offset += failure == EINVAL ? inputLeft : errorLength(charset: charset, bytes: bytes, at: offset)
      }
    }
    if flush {
      // A stateful encoding (ISO-2022-JP) may have a shift state to close.
      let written = output.withUnsafeMutableBytes { out -> Int in
        var outputPointer: UnsafeMutablePointer<CChar>? = out.baseAddress!.assumingMemoryBound(to: CChar.self)
        var outputLeft = out.count
        _ = iconv(converter, nil, nil, &outputPointer, &outputLeft)
        return (out.count - outputLeft) / 2
      }
      units.append(contentsOf: output[0..<written])
    }
    return (units, bytes.count)
  }

  /// How many bytes an invalid sequence at `offset` takes, by the Encoding Standard's rule for
  /// the two-byte encodings: a lead byte takes the byte after it along unless that byte is ASCII
  /// (which is decoded again), so `81 FF` is one U+FFFD where iconv's one-byte skip made two.
  /// GB18030's four-byte forms and the stateful ISO-2022-JP keep the one-byte skip.
  static func errorLength(charset: String, bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
    guard offset + 1 < bytes.count else { return 1 }
    let lead = bytes[offset]
    let trail = bytes[offset + 1]
    let isLead: Bool
    switch charset {
    case "BIG5-HKSCS", "CP949": isLead = (0x81...0xFE).contains(lead)
    case "GB18030": isLead = (0x81...0xFE).contains(lead) && !(0x30...0x39).contains(trail)
    case "CP932": isLead = (0x81...0x9F).contains(lead) || (0xE0...0xFC).contains(lead)
    case "EUC-JP": isLead = lead == 0x8E || (0xA1...0xFE).contains(lead)
    default: isLead = false
    }
    return isLead && trail >= 0x80 ? 2 : 1
  }

  private static func converter(for charset: String) -> iconv_t? {
    if let open = converters[charset] { return open }
    let converter = iconv_open("UTF-16LE", charset)
    guard let converter, Int(bitPattern: converter) != -1 else { return nil }
    converters[charset] = converter
    return converter
  }
}
