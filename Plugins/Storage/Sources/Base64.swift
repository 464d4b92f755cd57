/// Standard Base64 (RFC 4648, with padding) for sealed values: the plugin does without Foundation.
enum Base64 {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, symbol) in alphabet.enumerated() { table[Int(symbol)] = UInt8(index) }
    return table
  }()

  /// `bytes` as Base64 text.
  static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      var chunk = UInt32(bytes[index]) << 16
      if count > 1 { chunk |= UInt32(bytes[index + 1]) << 8 }
      if count > 2 { chunk |= UInt32(bytes[index + 2]) }
      for position in 0..<4 {
        out.append(position <= count ? alphabet[Int((chunk >> (18 - 6 * UInt32(position))) & 0x3F)] : UInt8(ascii: "="))
      }
      index += 3
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes of padded Base64 `text`, or nil when it is not that.
  static func decode(_ text: String) -> [UInt8]? {
    let symbols = Array(text.utf8)
    guard symbols.count % 4 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(symbols.count / 4 * 3)
    for start in stride(from: 0, to: symbols.count, by: 4) {
      var chunk: UInt32 = 0
      var padding = 0
      for offset in 0..<4 {
        let symbol = symbols[start + offset]
        if symbol == UInt8(ascii: "="), start + 4 == symbols.count, offset >= 2 {
          padding += 1
          chunk <<= 6
          continue
        }
        let value = values[Int(symbol)]
        guard value != 0xFF, padding == 0 else { return nil }
        chunk = chunk << 6 | UInt32(value)
      }
      out.append(UInt8(chunk >> 16))
      if padding < 2 { out.append(UInt8(chunk >> 8 & 0xFF)) }
      if padding < 1 { out.append(UInt8(chunk & 0xFF)) }
    }
    return out
  }
}
