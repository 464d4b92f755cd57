import NBridgePlugin

/// Compares shapes with shapes and values with shapes, listing each disagreement with its path.
enum ShapeCheck {
  /// How a declared options shape disagrees with the one its `Decodable` reads. A field the
  /// type reads as any JSON value (checked by hand) or as optional (required by hand) agrees
  /// with any declaration; keys must be the same on both sides.
  static func options(declared: Shape, decoded: Shape, at path: String) -> [String] {
    switch (unnamed(declared), unnamed(decoded)) {
    case (_, .any): return []
    case (.void, .void): return []
    case (.void, .object(let fields)) where fields.allSatisfy(\.optional): return []
    case (.object(let declared), .object(let decoded)):
      var problems: [String] = []
      for field in declared where !decoded.contains(where: { $0.name == field.name }) {
        problems.append("\(path).\(field.name) is declared but never read")
      }
      for field in decoded {
        guard let mine = declared.first(where: { $0.name == field.name }) else {
          problems.append("\(path).\(field.name) is read but not declared")
          continue
        }
        if mine.optional && !field.optional { problems.append("\(path).\(field.name) is optional but decoding requires it") }
        problems += options(declared: mine.shape, decoded: field.shape, at: "\(path).\(field.name)")
      }
      return problems
    case (.array(let a), .array(let b)), (.map(let a), .map(let b)):
      return options(declared: a, decoded: b, at: path + "[]")
    case (.integer, .number), (.literal, .string): return []
    case (.oneOf(let alternatives), .oneOf(let read)) where alternatives.allSatisfy(isLiteral):
      return Set(alternatives) == Set(read) ? [] : ["\(path) declares \(declared.typeScript), reads \(decoded.typeScript)"]
    case (.oneOf(let alternatives), let read):
      return alternatives.contains { options(declared: $0, decoded: read, at: path).isEmpty }
        ? [] : ["\(path) declares \(declared.typeScript), reads \(decoded.typeScript)"]
    case (let a, let b) where a == b: return []
    default: return ["\(path) declares \(declared.typeScript), reads \(decoded.typeScript)"]
    }
  }

  /// How `value` disagrees with `shape`: a wrong kind, a missing required field, or a field the
  /// shape does not declare.
  static func value(_ value: JSONValue, against shape: Shape, at path: String) -> [String] {
    let wrong = ["\(path) is \(value.jsonText), not \(shape.typeScript)"]
    switch (unnamed(shape), value) {
    case (.any, _), (.void, .null), (.null, .null), (.boolean, .bool), (.number, .number), (.string, .string):
      return []
    case (.integer, .number(let n)): return n == n.rounded() ? [] : wrong
    case (.bytes, .string): return []
    case (.bytes, .object(let object)):
      // A Uint8Array read back as JSON: its indices as keys, a byte each.
      let isBytes = object.members.enumerated().allSatisfy { index, member in
        member.0 == String(index) && member.1.numberValue.map { $0 >= 0 && $0 <= 255 && $0 == $0.rounded() } == true
      }
      return isBytes ? [] : wrong
    case (.literal(let text), .string(let s)): return text == s ? [] : wrong
    case (.array(let element), .array(let items)):
      return items.enumerated().flatMap { Self.value($1, against: element, at: "\(path)[\($0)]") }
    case (.map(let element), .object(let object)):
      return object.members.flatMap { Self.value($1, against: element, at: "\(path).\($0)") }
    case (.object(let fields), .object(let object)):
      var problems: [String] = []
      for field in fields {
        if let member = object[field.name] {
          problems += Self.value(member, against: field.shape, at: "\(path).\(field.name)")
        } else if !field.optional {
          problems.append("\(path).\(field.name) is missing")
        }
      }
      for key in object.keys where !fields.contains(where: { $0.name == key }) {
        problems.append("\(path).\(key) is not declared")
      }
      return problems
    case (.oneOf(let alternatives), _):
      return alternatives.contains { Self.value(value, against: $0, at: path).isEmpty } ? [] : wrong
    default: return wrong
    }
  }

  private static func unnamed(_ shape: Shape) -> Shape {
    if case .named(_, let inner) = shape { return unnamed(inner) }
    return shape
  }

  private static func isLiteral(_ shape: Shape) -> Bool {
    if case .literal = shape { return true }
    return false
  }
}
