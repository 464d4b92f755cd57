import Glibc
import NBridgePlugin

/// The Encoding Standard's legacy encodings (windows-1252, Shift_JIS, Big5, ...) decoded for
/// `TextDecoder` through glibc's `iconv(3)`, which knows every one of them; the labels and the
/// choice of decoder stay in `JS/encoding.js`.
///
/// A byte `iconv` cannot convert becomes U+FFFD (or ends the decode when `fatal`), and decoding
/// goes on with the next byte. A sequence cut off at the end is left unconsumed for the next
/// chunk of a stream, or is U+FFFD at the end of one. The windows code pages' C1 bytes that
/// `iconv` leaves undefined (0x81 in windows-1252, ...) decode to the same code points, as the
/// Encoding Standard's indexes have them.
@BridgeActor
enum LegacyDecoder {
  /// Open converters by charset, reset before each use (the run's one thread uses them).
  private static var converters: [String: iconv_t] = [:]

  /// UTF-16 code units decoded from `bytes`, and how many bytes were used; nil when `fatal` and
  /// the bytes are not valid, or when glibc has no converter for `charset`.
  static func decode(
    charset: String, bytes: UnsafeRawBufferPointer, flush: Bool, fatal: Bool, windowsC1: Bool
  ) -> (units: [UInt16], used: Int)? {
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
        let byte = bytes[offset]
        if windowsC1 && failure == EILSEQ && (0x80...0x9F).contains(byte) {
          units.append(UInt16(byte))
        } else {
          if fatal { return nil }
          units.append(0xFFFD)
        }
        offset += failure == EINVAL ? inputLeft : 1
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

  private static func converter(for charset: String) -> iconv_t? {
    if let open = converters[charset] { return open }
    let converter = iconv_open("UTF-16LE", charset)
    guard let converter, Int(bitPattern: converter) != -1 else { return nil }
    converters[charset] = converter
    return converter
  }
}
