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
}
