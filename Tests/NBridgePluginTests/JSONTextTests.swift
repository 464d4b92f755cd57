import NBridgePlugin
import Testing

@Suite struct JSONTextTests {
  @Test func roundTripsEveryKind() throws {
    let text = #"{"s":"héllo 👋","n":-12.5,"i":9007199254740992,"b":true,"z":null,"a":[1,[],{}],"o":{"k":"v"}}"#
    let value = try JSONValue(parsing: text)
    #expect(value["s"] == "héllo 👋")
    #expect(value["i"] == .number(9_007_199_254_740_992))
    #expect(value.jsonText == text)
  }

  @Test func escapesAndUnicodeEscapes() throws {
    let value = try JSONValue(parsing: #""a\"b\\c\n\u00e9\ud83d\ude00""#)
    #expect(value == .string("a\"b\\c\né😀"))
    #expect(value.jsonText == #""a\"b\\c\né😀""#)
  }

  @Test func escapesControlCharactersAnywhereInAString() {
    #expect(JSONValue.string("\u{01}tab\there\r\u{1F}").jsonText == #""\u0001tab\there\r\u001f""#)
    #expect(JSONValue.string("\"").jsonText == #""\"""#)
    #expect(JSONValue.string("").jsonText == #""""#)
  }

  @Test func rejectsBadText() {
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "{\"a\":}") }
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "[1,2") }
    #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: "1 2") }
  }

  @Test func keepsKeyOrder() throws {
    let value = try JSONValue(parsing: #"{"z":1,"a":2,"m":3}"#)
    #expect(value.objectValue?.keys == ["z", "a", "m"])
  }
}
