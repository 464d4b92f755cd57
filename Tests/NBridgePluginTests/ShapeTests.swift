import NBridgePlugin
import Testing

@Suite struct ShapeTests {
  @Test func rendersTypeScript() {
    let shape = Shape.fields(["key": .string, "defaultValue?": .any, "tags": .array(.oneOf([.string, .null]))])
    #expect(shape.typeScript == "{ key: string; defaultValue?: JSONValue; tags: (string | null)[] }")
  }
}
