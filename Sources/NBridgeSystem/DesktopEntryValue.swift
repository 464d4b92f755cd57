/// A value in a Desktop Entry file (`.desktop`: `nbridge install`'s entry, a bundle's, the
/// autostart entry), escaped by the specification's rules on Unicode scalars, not Swift
/// `Character`s (where `"\r\n"` is one and would slip past).
package enum DesktopEntryValue {
  /// A `string` or `localestring` value on one line: `\\`, `\n`, `\r`, `\t`, and `\s` for a
  /// leading space (readers trim it otherwise). A control character those cannot write (NUL,
  /// ESC, DEL, C1...) or a line or paragraph separator becomes `unwritable`; nil when that is nil.
  package static func escaped(_ text: String, unwritable: Unicode.Scalar?) -> String? {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case " " where out.isEmpty: out += "\\s"
      case _ where scalar == "\u{2028}" || scalar == "\u{2029}" || scalar.properties.generalCategory == .control:
        guard let unwritable else { return nil }
        out.unicodeScalars.append(unwritable)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
