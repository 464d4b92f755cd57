import NBridgePlugin
import Testing

private enum Mood: String, Decodable, CaseIterable { case calm, busy }
private struct Point: Decodable { var x: Double; var y: Double }
private struct Plain: Decodable {
  var name: String
  var count: Int?
  var tags: [String]
  var at: Point
  var mood: Mood
  var scores: [String: Int]?
}

/// Reads every key as a `JSONValue` to validate it itself, as the storage plugin does.
private struct Validating: Decodable {
  var key: String
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Keys.self)
    guard case .string(let key)? = try fields.decodeIfPresent(JSONValue.self, forKey: .key), !key.isEmpty else {
      throw BridgeError.invalidParameter("key", "must be a non-empty string")
    }
    self.key = key
    _ = try fields.decodeIfPresent(Bool.self, forKey: .flag)
  }
  private enum Keys: String, CodingKey { case key, flag }
}

/// Throws after reading one key: the shape is what it read first.
private struct Refusing: Decodable {
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Keys.self)
    _ = try fields.decode(String.self, forKey: .first)
    throw BridgeError.invalidParameter("first", "is never right")
  }
  private enum Keys: String, CodingKey { case first }
}

private struct Nested: Decodable {
  var inner: Int
  init(from decoder: any Decoder) throws {
    let outer = try decoder.container(keyedBy: Keys.self)
    let box = try outer.nestedContainer(keyedBy: Keys.self, forKey: .box)
    inner = try box.decode(Int.self, forKey: .inner)
  }
  private enum Keys: String, CodingKey { case box, inner }
}

@Suite struct ShapeDecodingTests {
  @Test func aSynthesizedDecodableIsItsFieldsWithTheirTypes() {
    #expect(
      Shape(decoding: Plain.self)
        == .fields([
          "name": .string, "count?": .integer, "tags": .array(.string),
          "at": .fields(["x": .number, "y": .number]), "mood": .oneOf([.literal("calm"), .literal("busy")]),
          "scores?": .map(.integer),
        ]))
  }

  @Test func simpleTypesAndNoOptions() {
    #expect(Shape(decoding: NoOptions.self) == .void)
    #expect(Shape(decoding: JSONValue.self) == .any)
    #expect(Shape(decoding: String.self) == .string)
    #expect(Shape(decoding: [Bool].self) == .array(.boolean))
    #expect(Shape(decoding: UInt8.self) == .integer)
  }

  @Test func aHandWrittenDecoderIsRecordedAsItReads() {
    #expect(Shape(decoding: Validating.self) == .fields(["key?": .any, "flag?": .boolean]))
    #expect(Shape(decoding: Nested.self) == .fields(["box": .fields(["inner": .integer])]))
  }

  @Test func aDecoderThatThrowsGivesWhatItReadBeforeThrowing() {
    #expect(Shape(decoding: Refusing.self) == .fields(["first": .string]))
  }

  @Test func anActionWithoutAnOptionsShapeTakesItsTypes() {
    #expect(Probe.definition.actions[0].options == .fields(["name": .string, "count?": .integer, "tags": .array(.string), "at": .fields(["x": .number, "y": .number]), "mood": .oneOf([.literal("calm"), .literal("busy")]), "scores?": .map(.integer)]))
    #expect(Probe.definition.actions[1].options == .fields(["given": .string]))
  }
}

@BridgeActor
private final class Probe: Plugin {
  nonisolated static let definition = PluginDefinition<Probe>(
    service: "probe",
    actions: [
      Action("derived") { (_, _: Plain, _) in JSONValue.null },
      Action("declared", options: .fields(["given": .string])) { (_, _: Plain, _) in JSONValue.null },
    ])
  init(context: PluginContext) {}
}
