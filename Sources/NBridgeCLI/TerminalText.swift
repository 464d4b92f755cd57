/// Text from a log record made safe to print on a terminal: what could move the cursor, start an
/// escape sequence, ring, end the line or reorder what follows is written as a visible escape.
///
/// `\n`, `\r`, `\t`, `\e` (ESC) by name; any other C0 control, DEL, C1 control (U+0080 to
/// U+009F), line or paragraph separator (U+2028, U+2029) and bidirectional embedding, override
/// or isolate (U+202A to U+202E, U+2066 to U+2069) as `\u{hex}`. A backslash is left as it is:
/// the text is for reading, and `--json` gives the exact string.
enum TerminalText {
  /// `text` with every such character escaped; the text itself when there is none.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{1B}": out += "\\e"
      default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
      }
    }
    return out
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }
}
