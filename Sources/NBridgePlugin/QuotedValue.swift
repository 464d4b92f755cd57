/// How an error message quotes a value a script passed: its JSON text cut to a short prefix, so
/// a megabyte string makes a message of one line (`(got "xxxxxxxx…")`), not of a megabyte.
package enum QuotedValue {
  /// The most characters of a value's JSON text an error message quotes.
  package static let maxCharacters = 80

  /// `text` as a JSON string literal, cut after `maxCharacters` characters with `…"`.
  package static func text(_ text: String) -> String {
    let head = text.prefix(maxCharacters)
    guard head.endIndex < text.endIndex else { return JSONValue.string(text).jsonText }
    return String(JSONValue.string(String(head)).jsonText.dropLast()) + "…\""
  }

  /// `value`'s JSON text, cut after `maxCharacters` characters with `…` (a string as `text` cuts it).
  package static func json(_ value: JSONValue) -> String {
    if case .string(let string) = value { return text(string) }
    let json = value.jsonText
    return json.count > maxCharacters ? String(json.prefix(maxCharacters)) + "…" : json
  }
}
