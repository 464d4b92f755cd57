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

  /// Parses `text` as a call's options would be (from UTF-16, lone surrogates refused).
  private func options(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    let units = Array(text.utf16)
    return try units.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) in
      try JSONValue(parsingOptionsUTF16: buffer)
    }
  }

  @Test func optionsRefuseALoneSurrogateAndNameWhereItIs() throws {
    #expect(try options(#"{"k":"\ud83d\ude00"}"#) == ["k": "😀"])
    for (text, path) in [
      (#"{"key":"\ud800"}"#, "key"), (#"{"value":{"a":["ok","x\udbff"]}}"#, "value.a[1]"),
      (#"{"v":"\udc00\ud800"}"#, "v"), (#"{"v":"\ud800\u0041"}"#, "v"),
    ] {
      do {
        _ = try options(text)
        Issue.record("\(text) was accepted")
      } catch {
        #expect(error.refusesValue && error.path == path, "\(text): \(error)")
        #expect(error.reason.hasPrefix("must be well-formed UTF-16"))
      }
    }
    // Raw lone surrogates (not escaped) in the UTF-16 text are refused the same way.
    let raw: [UInt16] = Array(#"{"name":"a"#.utf16) + [0xDBFF] + Array(#""}"#.utf16)
    let error = raw.withUnsafeBufferPointer { buffer -> JSONSyntaxError? in
      do throws(JSONSyntaxError) { _ = try JSONValue(parsingOptionsUTF16: buffer) } catch { return error }
      return nil
    }
    #expect(error?.path == "name")
    // Plain parsing (files) keeps replacing them with U+FFFD.
    #expect(try JSONValue(parsing: #""\ud800""#) == "\u{FFFD}")
  }

  @Test func optionsNestedPastTheLimitNameThePath() {
    let text = String(repeating: #"{"a":"#, count: BridgeLimits.maxDepth) + "1" + String(repeating: "}", count: BridgeLimits.maxDepth)
    #expect(throws: Never.self) { try options(text) }
    let deeper = #"{"v":["# + text + "]}"
    do {
      _ = try options(deeper)
      Issue.record("accepted")
    } catch {
      #expect(error.refusesValue)
      #expect(error.description.hasPrefix(#""v[0].a.a"#) && error.description.hasSuffix("nests deeper than 512 levels"))
    }
  }
}
