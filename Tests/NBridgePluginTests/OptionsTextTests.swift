import NBridgePlugin
import Testing

/// `OptionsText` reads a call's options in place: it must accept and refuse exactly what
/// `JSONValue(parsingOptions:)` does, with the same error, and give each field's exact text.
@Suite struct OptionsTextTests {
  static let texts: [String] = [
    #"{"key":"k","value":"plain"}"#, #"{"key":"k","value":{"a":[1,"two",null,true,false,-0.5e3]},"group":"g"}"#,
    #" { "key" : "k" , "value" : [ ] , "x" : { } } "#, #"{}"#, #"{"k":"quote \" backslash \\ tab \t \u00e9 😀"}"#,
    #"{"a":"\ud83d\ude00"}"#, #"{"a":"\ud800"}"#, #"{"a":{"b":["\udc00"]}}"#, #"{"a":1,"a":2}"#, #"[1]"#, #""x""#,
    #"null"#, #"{"a":01}"#, #"{"a":1e999}"#, #"{"a":tru}"#, #"{"a":"\x"}"#, #"{"a":[1,]}"#, #"{"a":1,}"#,
    #"{"a" 1}"#, #"{"a":1}x"#, #"{"a":"raw"#, "{\"a\":\"\u{1}\"}", #"{"a":"é","b":{"c":"日本"}}"#,
  ]
  static let deep: [String] = [
    String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600),
    #"{"a":"# + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}",
  ]

  /// The parser's outcome, as text to compare: the value's JSON text or the error.
  static func parsed(_ text: String) -> String {
    do throws(JSONSyntaxError) { return try JSONValue(parsingOptions: text).jsonText } catch { return "\(error)" }
  }

  @Test func acceptsAndRefusesWhatTheParserDoes() {
    for text in Self.texts + Self.deep {
      let scanned: String
      do throws(JSONSyntaxError) { scanned = try OptionsText(scanning: text).value.jsonText } catch {
        scanned = "\(error)"
      }
      #expect(scanned == Self.parsed(text), "\(text.prefix(60))")
    }
  }

  @Test func aFieldGivesItsValueAndItsTextAsWritten() throws {
    let options = try OptionsText(scanning: #"{ "key" : "k\u0041" , "value" : {"b": [1, 2.50]} ,"key":"second"}"#)
    #expect(options.isObject)
    #expect(options.value("key") == "kA")
    #expect(options.jsonText("value") == #"{"b": [1, 2.50]}"#)
    #expect(options.value("value") == ["b": [1, 2.5]])
    #expect(options.jsonText("missing") == nil)
    #expect(options.value("missing") == nil)
    #expect(try !OptionsText(scanning: "[1]").isObject)
    #expect(try OptionsText(value: ["v": "x"]).jsonText("v") == #""x""#)
  }
}
