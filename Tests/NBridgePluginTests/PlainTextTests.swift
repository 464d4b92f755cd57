import NBridgePlugin
import Testing

/// The word-at-a-time scan for JSON string content that needs no escaping: a character that ends the
/// plain run (or makes it non-ASCII) is found at every offset, inside a word and across word edges.
@Suite struct PlainTextTests {
  /// Characters JSON escapes (a quote, a backslash, control characters) and ones it keeps as they are.
  static let escaped: [Character] = ["\"", "\\", "\n", "\u{00}", "\u{1F}"]
  static let kept: [Character] = [" ", "!", "#", "[", "]", "~", "\u{7F}", "é", "ÿ", "Ā", "한", "😀"]

  /// `count` plain ASCII characters, then `special`, then some more.
  static func text(_ count: Int, _ special: Character) -> String {
    String(repeating: "a", count: count) + String(special) + String(repeating: "b", count: 9)
  }

  @Test func thePlainPrefixEndsAtTheFirstCharacterJSONEscapes() {
    for count in 0..<20 {
      for special in Self.escaped {
        var text = Self.text(count, special)
        let prefix = text.withUTF8 { PlainText.plainPrefix($0) }
        #expect(prefix == count, "\(count) plain characters, then \(special.unicodeScalars.first!)")
      }
      for special in Self.kept {
        var text = Self.text(count, special)
        let prefix = text.withUTF8 { PlainText.plainPrefix($0) }
        #expect(prefix == text.utf8.count, "\(count) plain characters, then \(special)")
      }
    }
  }

  @Test func optionsTextParsesBackToTheSameStringAtEveryOffset() throws {
    for count in 0..<20 {
      for special in Self.escaped + Self.kept {
        let value: JSONValue = ["key": .string(Self.text(count, special))]
        let utf16 = Array(value.jsonText.utf16)
        let parsed = try utf16.withUnsafeBufferPointer { try JSONValue(parsingOptionsUTF16: $0) }
        #expect(parsed == value, "\(count) plain characters, then \(special.unicodeScalars.first!)")
        #expect(try JSONValue(parsingOptions: value.jsonText) == value)
      }
    }
  }
}
