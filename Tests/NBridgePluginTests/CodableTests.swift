import NBridgePlugin
import Testing

struct Options: Codable, Equatable {
  var key: String
  var count: Int?
  var tags: [String] = []
  var nested: Nested?
  struct Nested: Codable, Equatable { var flag: Bool }
}

@Suite struct CodableTests {
  @Test func decodesTypedOptions() throws {
    let json: JSONValue = ["key": "k", "count": 3, "tags": ["a"], "nested": ["flag": true]]
    let options = try JSONValueDecoder().decode(Options.self, from: json)
    #expect(options == Options(key: "k", count: 3, tags: ["a"], nested: .init(flag: true)))
    #expect(try JSONValueEncoder().encode(options) == json)
  }

  @Test func missingFieldNamesIt() {
    #expect(throws: BridgeError.invalidParameter("key", "is required")) {
      try JSONValueDecoder().decode(Options.self, from: ["count": 1, "tags": []])
    }
  }

  @Test func wrongTypeNamesThePath() {
    let json: JSONValue = ["key": "k", "tags": [], "nested": ["flag": "yes"]]
    #expect(throws: BridgeError.invalidParameter("nested.flag", "must be a boolean (got string)")) {
      try JSONValueDecoder().decode(Options.self, from: json)
    }
  }

  @Test func fractionalIntegerIsRejected() {
    #expect(throws: BridgeError.self) { try JSONValueDecoder().decode(Options.self, from: ["key": "k", "count": 1.5]) }
  }

  /// Every fixed-width integer field, as a plugin might declare them.
  struct Widths: Decodable {
    var i8: Int8?
    var i16: Int16?
    var i32: Int32?
    var i64: Int64?
    var u8: UInt8?
    var u16: UInt16?
    var u32: UInt32?
    var u64: UInt64?
    var f: Float?
  }

  @Test func everyIntegerWidthDecodesWithinItsRange() throws {
    let json: JSONValue = [
      "i8": -128, "i16": 32767, "i32": -2_147_483_648, "i64": 9_007_199_254_740_991, "u8": 255, "u16": 65535,
      "u32": 4_294_967_295, "u64": 0, "f": 1.5,
    ]
    let w = try JSONValueDecoder().decode(Widths.self, from: json)
    #expect(w.i8 == -128 && w.i16 == 32767 && w.i32 == Int32.min && w.i64 == 9_007_199_254_740_991)
    #expect(w.u8 == 255 && w.u16 == 65535 && w.u32 == UInt32.max && w.u64 == 0 && w.f == 1.5)
  }

  @Test(arguments: [
    ("u8", 256.0, "\"u8\" must be a whole number from 0 to 255 (got 256)"),
    ("i8", -129.0, "\"i8\" must be a whole number from -128 to 127 (got -129)"),
    ("u16", 1e16, "\"u16\" must be a whole number from 0 to 65535 (got 10000000000000000)"),
    ("u32", -1.0, "\"u32\" must be a whole number from 0 to 4294967295 (got -1)"),
    ("i64", 1e16, "\"i64\" must be a whole number from -9007199254740991 to 9007199254740991 (got 10000000000000000)"),
    ("u64", 1.5, "\"u64\" must be a whole number from 0 to 9007199254740991 (got 1.5)"),
    ("f", 1e300, "\"f\" must be a number within ±3.4028235e+38 (got 1e+300)"),
  ])
  func aNumberOutsideTheFieldsTypeIsInvalidParameterNamingIt(field: String, value: Double, message: String) {
    var object = JSONObject()
    object[field] = .number(value)
    #expect(throws: BridgeError(.invalidParameter, message)) {
      try JSONValueDecoder().decode(Widths.self, from: .object(object))
    }
  }
}
