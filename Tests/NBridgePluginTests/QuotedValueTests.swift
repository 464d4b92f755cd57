import NBridgePlugin
import Testing

/// An error message quotes a value a script passed by a short prefix, and no message carries megabytes.
@Suite struct QuotedValueTests {
  @Test func aLongValueIsQuotedByItsFirst80Characters() {
    #expect(QuotedValue.text("maybe") == "\"maybe\"")
    #expect(QuotedValue.text("a\"b") == "\"a\\\"b\"")
    let huge = String(repeating: "é", count: 1 << 20)
    #expect(QuotedValue.text(huge) == "\"" + String(repeating: "é", count: 80) + "…\"")
    #expect(QuotedValue.json(.string(huge)) == QuotedValue.text(huge))
    let list = JSONValue.array(Array(repeating: .number(1), count: 100))
    #expect(QuotedValue.json(list) == String(list.jsonText.prefix(80)) + "…")
    #expect(QuotedValue.json(.number(600)) == "600")
  }

  @Test func aMessageOver2048CharactersIsCut() {
    let message = "\"result\" must be 'newData' (got \"" + String(repeating: "x", count: 1 << 20) + "\")"
    let error = BridgeError.invalidParameter("result", message)
    #expect(error.message.count == BridgeError.maxMessageCharacters + 1)
    #expect(error.message.hasSuffix("xxx…"))
    let short = BridgeError(.notFound, String(repeating: "y", count: 2048))
    #expect(short.message.count == 2048)
  }
}
