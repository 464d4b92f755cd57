/// One pasteboard as the shared store keeps it: its cross-process change count and its text.
///
/// On disk: a header line `nbridge-pasteboard/1 <changeCount> <byteCount or -1>` and then
/// the text's UTF-8 bytes; `-1` means the pasteboard holds no text.
struct StoredPasteboard: Equatable, Sendable {
  /// Up by one on every `setString` or `clear`, whichever process made it.
  var changeCount: Int
  /// The text, or nil when cleared or never set.
  var text: String?

  private static let magic = "nbridge-pasteboard/1"

  /// The file's bytes.
  func encoded() -> [UInt8] {
    let body = text.map { Array($0.utf8) }
    var bytes = Array("\(StoredPasteboard.magic) \(changeCount) \(body?.count ?? -1)\n".utf8)
    if let body { bytes += body }
    return bytes
  }

  /// Parses a file's bytes; nil when they are not a complete pasteboard file.
  init?(decoding bytes: [UInt8]) {
    guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
    let fields = String(decoding: bytes[..<newline], as: UTF8.self).split(separator: " ")
    guard fields.count == 3, fields[0] == StoredPasteboard.magic,
      let count = Int(fields[1]), count >= 0, let length = Int(fields[2])
    else { return nil }
    let body = bytes[(newline + 1)...]
    if length < 0 {
      guard body.isEmpty else { return nil }
      self.init(changeCount: count, text: nil)
    } else {
      guard body.count == length else { return nil }
      self.init(changeCount: count, text: String(decoding: body, as: UTF8.self))
    }
  }

  /// A pasteboard with a count and text.
  init(changeCount: Int, text: String?) {
    self.changeCount = changeCount
    self.text = text
  }
}
