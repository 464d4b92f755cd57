import NBridgePlugin
import Testing

@testable import NBridgeStorage

/// `get`, `set` and `remove` read their options straight from the call's JSON text
/// (`init(options:)`) and, for their declared shape, through `Decodable`: the two must take and
/// refuse the same options with the same values and the same errors.
@Suite struct StorageOptionsTests {
  static let samples: [JSONValue] = [
    ["key": "k", "value": "plain"], ["key": "k", "value": ["a": [1, "two"]], "group": "g", "secure": false],
    ["key": "k", "value": nil], ["key": "k", "value": "quote \" backslash \\ newline \n"], ["key": "k"],
    ["value": 1], ["key": "", "value": 1], ["key": 3, "value": 1], ["key": "k", "value": 1, "group": ""],
    ["key": "k", "value": 1, "group": nil], ["key": "k", "value": 1, "group": 2], ["key": "k", "secure": "yes"],
    ["key": "k", "value": 1, "secure": "yes"], ["key": "k", "value": 1, "secure": true], ["key": "k", "secure": true],
    ["key": .string(String(repeating: "k", count: 1025)), "value": 1], ["key": "k", "defaultValue": [1, 2]],
    ["key": "k", "value": .string(String(repeating: "v", count: 1 << 20))], [:], nil, "not an object", [1],
  ]

  /// What reading `sample` gives, as text to compare: the fields, or the error's code and message.
  static func outcome<O>(_ read: () throws -> O, _ fields: (O) -> [String]) -> String {
    do {
      return fields(try read()).joined(separator: " | ")
    } catch let error as BridgeError {
      return "\(error.code.rawValue): \(error.message)"
    } catch {
      return "other error: \(error)"
    }
  }

  @Test func setReadsTheSameEitherWay() {
    for sample in Self.samples {
      let fields = { (o: SetOptions) in [o.key, o.group, o.json, "\(o.secure)"] }
      let direct = Self.outcome({ try SetOptions(options: OptionsText(value: sample)) }, fields)
      #expect(direct == Self.outcome({ try JSONValueDecoder().decode(SetOptions.self, from: sample) }, fields))
    }
  }

  @Test func getReadsTheSameEitherWay() {
    for sample in Self.samples {
      let fields = { (o: KeyOptions) in [o.key, o.group, o.defaultValue.jsonText, "\(o.secure)"] }
      let direct = Self.outcome({ try KeyOptions(options: OptionsText(value: sample)) }, fields)
      #expect(direct == Self.outcome({ try JSONValueDecoder().decode(KeyOptions.self, from: sample) }, fields))
    }
  }

  @Test func removeReadsTheSameEitherWay() {
    for sample in Self.samples {
      let fields = { (o: RemoveOptions) in [o.key, o.group, "\(o.secure)"] }
      let direct = Self.outcome({ try RemoveOptions(options: OptionsText(value: sample)) }, fields)
      #expect(direct == Self.outcome({ try JSONValueDecoder().decode(RemoveOptions.self, from: sample) }, fields))
    }
  }

  @Test func setStoresTheValueTextAsItCame() throws {
    let options = try SetOptions(options: OptionsText(scanning: #"{"key":"k","value":{"b" : [1.50, "\u00e9"]}}"#))
    #expect(options.json == #"{"b" : [1.50, "\u00e9"]}"#)
    let long = try OptionsText(scanning: #"{"key":"k","value":""# + String(repeating: "v", count: 1 << 20) + #""}"#)
    #expect(Self.outcome({ try SetOptions(options: long) }, { [$0.json] })
      == "invalid_parameter: \"value\" must be at most 1048576 bytes as JSON text (got 1048578)")
  }
}
