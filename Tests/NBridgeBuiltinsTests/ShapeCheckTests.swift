import NBridgePlugin
import Testing

private struct Renamed: Decodable { var title: String; var count: Int? }

/// The checks the drift tests rely on do catch drift.
@Suite struct ShapeCheckTests {
  @Test func aRenamedOrRetypedOptionIsCaught() {
    let decoded = Shape(decoding: Renamed.self)
    #expect(ShapeCheck.options(declared: .fields(["title": .string, "count?": .integer]), decoded: decoded, at: "o").isEmpty)
    #expect(
      ShapeCheck.options(declared: .fields(["name": .string, "count?": .integer]), decoded: decoded, at: "o")
        == ["o.name is declared but never read", "o.title is read but not declared"])
    #expect(
      ShapeCheck.options(declared: .fields(["title": .string, "count?": .string]), decoded: decoded, at: "o")
        == ["o.count declares string, reads number"])
    #expect(
      ShapeCheck.options(declared: .fields(["title?": .string, "count?": .integer]), decoded: decoded, at: "o")
        == ["o.title is optional but decoding requires it"])
  }

  @Test func aResultThatDriftsFromItsShapeIsCaught() {
    let shape = Shape.named("Info", .fields(["id": .string, "count": .integer, "note?": Shape.string.orNull]))
    #expect(ShapeCheck.value(["id": "a", "count": 2, "note": nil], against: shape, at: "r").isEmpty)
    #expect(ShapeCheck.value(["id": "a", "count": 2.5], against: shape, at: "r") == ["r.count is 2.5, not number"])
    #expect(ShapeCheck.value(["count": 2], against: shape, at: "r") == ["r.id is missing"])
    #expect(ShapeCheck.value(["id": "a", "count": 1, "extra": true], against: shape, at: "r") == ["r.extra is not declared"])
    #expect(ShapeCheck.value(.null, against: .void, at: "r").isEmpty)
    #expect(ShapeCheck.value(.string("x"), against: .void, at: "r") == ["r is \"x\", not void"])
  }
}
