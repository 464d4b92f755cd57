/// A call's options as their JSON text (UTF-8), read in place: one pass over the text checks it
/// as `JSONValue(parsingOptions:)` would and notes where each top-level field's value is; a
/// field then gives its value's exact text (what `storage.set` stores) or, only when asked, the
/// value itself. No `JSONValue` of the whole options is built.
package struct OptionsText: Sendable {
  /// The options' JSON text.
  package let text: String
  /// Each top-level field in text order: its name and the UTF-8 offsets of its value's text;
  /// nil when the options are not an object.
  private let fields: [Field]?

  /// A top-level field: its name and the UTF-8 offsets of its value's text. A struct, not a
  /// tuple: a list of tuples is destroyed through the tuple's generic metadata, element by element.
  struct Field {
    let name: String
    let range: Range<Int>
  }

  /// Reads `text`, a call's options: throws the error `JSONValue(parsingOptions:)` throws for
  /// it (bad JSON, a lone surrogate, nesting too deep), with the same path.
  package init(scanning text: String) throws(JSONSyntaxError) {
    var text = text
    let scanned: Result<[Field]?, JSONSyntaxError> = text.withUTF8 { bytes in
      var scanner = JSONParser<UTF8>(bytes, wellFormed: true)
      do throws(JSONSyntaxError) {
        return .success(try scanner.scanOptions())
      } catch {
        // The parser says what is wrong and where (the scan keeps no keys for the path).
        var parser = JSONParser<UTF8>(bytes, wellFormed: true)
        do throws(JSONSyntaxError) { _ = try parser.parseDocument() } catch { return .failure(error) }
        return .failure(error)
      }
    }
    self.text = text
    fields = try scanned.get()
  }

  /// No options: `{}`.
  package init() {
    text = "{}"
    fields = []
  }

  /// The options given as a value (a page's call by name, the window's own calls): their JSON text, read.
  package init(value: JSONValue) throws(JSONSyntaxError) {
    try self.init(scanning: value.jsonText)
  }

  /// Whether the options are an object (a caller may send none, or a page something else).
  package var isObject: Bool { fields != nil }

  /// The whole options as a value.
  package var value: JSONValue { (try? JSONValue(parsingOptions: text)) ?? .null }

  /// The exact JSON text of field `name`'s value (the first, when the text holds the name twice), or nil.
  package func jsonText(_ name: String) -> Substring? {
    guard let range = range(of: name) else { return nil }
    // A string of its own (the copy a stored value needs anyway; `String(_:)` of a Substring
    // spanning its whole string takes the string as it is). `text` is native: `init` read it
    // through `withUTF8`, as `value(_:)` reads it here too.
    return text.utf8.withContiguousStorageIfAvailable {
      Substring(String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self))
    }
  }

  /// Field `name`'s value, or nil when the options have no such field.
  package func value(_ name: String) -> JSONValue? {
    guard let range = range(of: name) else { return nil }
    return text.utf8.withContiguousStorageIfAvailable { bytes in
      var parser = JSONParser<UTF8>(UnsafeBufferPointer(rebasing: bytes[range]), wellFormed: true)
      return try? parser.parseDocument()
    } ?? nil
  }

  private func range(of name: String) -> Range<Int>? {
    guard let fields else { return nil }
    for field in fields where field.name == name { return field.range }
    return nil
  }
}

extension JSONValue {
  /// Checks that `text` is one JSON value as `init(parsing:)` reads it, building nothing.
  package static func checkText(_ text: String) throws(JSONSyntaxError) {
    var text = text
    let error: JSONSyntaxError? = text.withUTF8 { bytes in
      var scanner = JSONParser<UTF8>(bytes)
      do throws(JSONSyntaxError) {
        try scanner.skipValue()
        scanner.skipSpace()
        guard scanner.index == bytes.count else { throw scanner.fail("end of input") }
        return nil
      } catch {
        return error
      }
    }
    if let error { throw error }
  }
}

extension JSONParser {
  /// Checks a document of options and returns each top-level field's name and value's range,
  /// or nil (the document checked) when it is not an object. Throws where `parseDocument` would.
  mutating func scanOptions() throws(JSONSyntaxError) -> [OptionsText.Field]? {
    skipSpace()
    guard peek() == 0x7B else {
      _ = try parseDocument()
      return nil
    }
    try enter()
    index += 1
    var fields: [OptionsText.Field] = []
    skipSpace()
    if peek() == 0x7D {
      index += 1
    } else {
      fields.reserveCapacity(8)
      scan: while true {
        skipSpace()
        guard peek() == 0x22 else { throw fail("a string key") }
        let name = try parseString()
        skipSpace()
        guard peek() == 0x3A else { throw fail("':'") }
        index += 1
        skipSpace()
        let start = index
        try skipValue()
        fields.append(OptionsText.Field(name: name, range: start..<index))
        skipSpace()
        switch peek() {
        case 0x2C: index += 1
        case 0x7D: index += 1; break scan
        default: throw fail("',' or '}'")
        }
      }
    }
    depth -= 1
    skipSpace()
    guard index == input.count else { throw fail("end of input") }
    return fields
  }

  /// Checks one value as `parseValue` does, building nothing.
  mutating func skipValue() throws(JSONSyntaxError) {
    skipSpace()
    guard let c = peek() else { throw fail("a value") }
    switch c {
    case 0x22: try skipString()
    case 0x7B, 0x5B:
      let close: UInt32 = c == 0x7B ? 0x7D : 0x5D
      try enter()
      index += 1
      skipSpace()
      if peek() == close {
        index += 1
      } else {
        while true {
          if close == 0x7D {
            skipSpace()
            guard peek() == 0x22 else { throw fail("a string key") }
            try skipString()
            skipSpace()
            guard peek() == 0x3A else { throw fail("':'") }
            index += 1
          }
          try skipValue()
          skipSpace()
          guard let next = peek(), next == 0x2C || next == close else {
            throw fail(close == 0x7D ? "',' or '}'" : "',' or ']'")
          }
          index += 1
          if next == close { break }
        }
      }
      depth -= 1
    case 0x74: try literal("true")
    case 0x66: try literal("false")
    case 0x6E: try literal("null")
    default: _ = try parseNumber()
    }
  }

  /// Checks a string as `parseString` does: a run with nothing to unescape is passed over a
  /// word at a time; anything else goes through `parseString` itself.
  mutating func skipString() throws(JSONSyntaxError) {
    let run = PlainText.plainRun(input, from: index + 1)
    if Unit.bitWidth == 8 || run.ascii, run.end < input.count, input[run.end] == 0x22 {
      index = run.end + 1
      return
    }
    _ = try parseString()
  }
}
