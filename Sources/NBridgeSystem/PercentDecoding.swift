/// `%XX` escapes in URL text (RFC 3986's percent-encoding).
package enum PercentDecoding {
  /// `text` with its `%XX` escapes decoded, the bytes read as UTF-8 (an ill-formed sequence
  /// becomes U+FFFD); a `%` not followed by two hex digits stays as it is.
  package static func decoded(_ text: some StringProtocol) -> String {
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "%"), utf8.count >= 2,
        let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
      {
        bytes.append(value)
        utf8 = utf8.dropFirst(2)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
