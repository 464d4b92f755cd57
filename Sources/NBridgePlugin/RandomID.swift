/// Random identifiers from the kernel's generator, without Foundation.
///
/// Bytes come from `SystemRandomNumberGenerator`, which reads `getrandom(2)` on Linux:
/// unpredictable, never blocking once the system is up, and safe from any thread.
public enum RandomID {
  /// `count` random bytes.
  public static func bytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var out: [UInt8] = []
    out.reserveCapacity(count + 8)
    while out.count < count {
      withUnsafeBytes(of: generator.next() as UInt64) { out.append(contentsOf: $0) }
    }
    out.removeLast(out.count - count)
    return out
  }

  /// A random UUID, version 4, lowercase as `crypto.randomUUID()` writes it: `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
  public static func uuid() -> String {
    var raw = bytes(16)
    raw[6] = raw[6] & 0x0F | 0x40
    raw[8] = raw[8] & 0x3F | 0x80
    var text = ""
    text.reserveCapacity(36)
    for (index, byte) in raw.enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 { text += "-" }
      appendHex(byte, to: &text)
    }
    return text
  }

  /// `byteCount` random bytes as lowercase hex (twice as many characters): a short unique id.
  public static func hex(byteCount: Int = 8) -> String {
    var text = ""
    text.reserveCapacity(byteCount * 2)
    for byte in bytes(byteCount) { appendHex(byte, to: &text) }
    return text
  }

  /// Whether `text` is a UUID in the 8-4-4-4-12 hex form (any version, either case).
  public static func isUUID(_ text: String) -> Bool {
    let utf8 = Array(text.utf8)
    guard utf8.count == 36 else { return false }
    for (index, c) in utf8.enumerated() {
      if index == 8 || index == 13 || index == 18 || index == 23 {
        if c != 0x2D { return false }
      } else if !((0x30...0x39).contains(c) || (0x61...0x66).contains(c) || (0x41...0x46).contains(c)) {
        return false
      }
    }
    return true
  }

  private static let digits: [Character] = Array("0123456789abcdef")

  private static func appendHex(_ byte: UInt8, to text: inout String) {
    text.append(digits[Int(byte >> 4)])
    text.append(digits[Int(byte & 0x0F)])
  }
}
