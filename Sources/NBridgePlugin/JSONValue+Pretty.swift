extension JSONValue {
  /// JSON text indented by two spaces, for people to read.
  public var prettyJSON: String {
    var out = ""
    write(into: &out, indent: "")
    return out
  }

  private func write(into out: inout String, indent: String) {
    let inner = indent + "  "
    switch self {
    case .array(let elements) where !elements.isEmpty:
      out += "[\n"
      for (i, element) in elements.enumerated() {
        out += inner
        element.write(into: &out, indent: inner)
        out += i < elements.count - 1 ? ",\n" : "\n"
      }
      out += indent + "]"
    case .object(let object) where !object.isEmpty:
      out += "{\n"
      for (i, member) in object.members.enumerated() {
        out += inner + JSONValue.string(member.key).jsonText + ": "
        member.value.write(into: &out, indent: inner)
        out += i < object.count - 1 ? ",\n" : "\n"
      }
      out += indent + "}"
    default:
      out += jsonText
    }
  }
}
