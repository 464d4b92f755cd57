import NBridgeSystem

/// The Desktop Entry Specification's escapes, on Unicode scalars (not Swift `Character`s, where
/// `"\r\n"` is one): the rules `nbridge install`'s entry follows, for the autostart entry.
enum DesktopEntryText {
  /// A `string` or `localestring` value on one line: `\\`, `\n`, `\r`, `\t`, and `\s` for a
  /// leading space (readers trim it otherwise). Other control characters, and line or paragraph
  /// separators, have no escape: nil.
  static func escaped(_ text: String) -> String? { DesktopEntryValue.escaped(text, unwritable: nil) }

  /// The characters that make an `Exec` argument need quotes (the specification's reserved set).
  private static let reserved: Set<Unicode.Scalar> = [
    " ", "\t", "\n", "\"", "'", "\\", ">", "<", "~", "|", "&", ";", "$", "*", "?", "#", "(", ")", "`",
  ]

  /// One `Exec` argument as it appears in the file: double-quoted when it holds a reserved
  /// character (`"`, `` ` ``, `$` and `\` backslash-escaped inside), `%` doubled, then escaped as
  /// a string value (so a backslash is written twice). Nil for an empty argument or one with a
  /// control, format or separator character, which no quoting carries safely.
  static func execArgument(_ argument: String) -> String? {
    guard !argument.isEmpty else { return nil }
    for scalar in argument.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: return nil
      default: continue
      }
    }
    var word = ""
    let quoted = argument.unicodeScalars.contains { reserved.contains($0) }
    if quoted { word += "\"" }
    for scalar in argument.unicodeScalars {
      switch scalar {
      case "\"", "`", "$", "\\": word += "\\"; word.unicodeScalars.append(scalar)
      case "%": word += "%%"
      default: word.unicodeScalars.append(scalar)
      }
    }
    if quoted { word += "\"" }
    return escaped(word)
  }
}
