/// The declared shape of an action's options or result, or an event's payload.
///
/// Swift cannot reflect a `Decodable`'s fields, so each plugin states them; `nbridge
/// plugins` prints them and `nbridge types` turns them into TypeScript.
public indirect enum Shape: Sendable, Hashable {
  /// Any JSON value.
  case any
  /// No value (`undefined` in TypeScript; the call resolves with `null`).
  case void
  /// Only `null` (with `orNull`, a value that may be missing).
  case null
  /// `true` or `false`.
  case boolean
  /// Any finite number.
  case number
  /// A whole number.
  case integer
  /// Any string (`.literal` for one exact string).
  case string
  /// One exact string, such as `'granted'`.
  case literal(String)
  /// Bytes: a `Uint8Array` in JavaScript, Base64 text on the way (`Bytes` in Swift). In options a
  /// top-level field of this shape also takes an `ArrayBuffer` or any other view.
  case bytes
  /// An array of one shape.
  case array(Shape)
  /// An object with named fields.
  case object([Field])
  /// An object used as a map from string keys to one shape.
  case map(Shape)
  /// Any one of several shapes.
  case oneOf([Shape])
  /// A shape with a name, declared once as a TypeScript interface or type.
  case named(String, Shape)

  /// An object from `"name": shape` pairs; a name ending in `?` is optional.
  public static func fields(_ pairs: KeyValuePairs<String, Shape>) -> Shape {
    .object(pairs.map { Field($0.key, $0.value) })
  }

  /// This shape or `null`.
  public var orNull: Shape { .oneOf([self, .null]) }
}

/// One field of an object shape.
public struct Field: Sendable, Hashable {
  /// The property name.
  public var name: String
  /// The shape of the field's value.
  public var shape: Shape
  /// Whether it may be absent.
  public var optional: Bool

  /// A field; a `name` ending in `?` makes it optional.
  public init(_ name: String, _ shape: Shape, optional: Bool = false) {
    if name.hasSuffix("?") {
      self.name = String(name.dropLast())
      self.optional = true
    } else {
      self.name = name
      self.optional = optional
    }
    self.shape = shape
  }
}

extension Shape {
  /// The TypeScript type for this shape; named shapes are referred to by name.
  public var typeScript: String {
    switch self {
    case .any: return "JSONValue"
    case .void: return "void"
    case .null: return "null"
    case .boolean: return "boolean"
    case .number, .integer: return "number"
    case .string: return "string"
    case .literal(let s): return "'\(s)'"
    case .bytes: return "Uint8Array"
    case .array(let element):
      let inner = element.typeScript
      if case .oneOf = element { return "(\(inner))[]" }
      return "\(inner)[]"
    case .object(let fields):
      if fields.isEmpty { return "Record<string, never>" }
      let body = fields.map { "\(tsName($0.name))\($0.optional ? "?" : ""): \($0.shape.typeScript)" }
      return "{ " + body.joined(separator: "; ") + " }"
    case .map(let value): return "{ [key: string]: \(value.typeScript) }"
    case .oneOf(let shapes): return shapes.map(\.typeScript).joined(separator: " | ")
    case .named(let name, _): return name
    }
  }

  /// Every named shape reachable from this one, outermost first.
  package var namedShapes: [(name: String, shape: Shape)] {
    var found: [(String, Shape)] = []
    collectNamed(into: &found)
    return found
  }

  private func collectNamed(into found: inout [(String, Shape)]) {
    switch self {
    case .named(let name, let inner):
      if !found.contains(where: { $0.0 == name }) { found.append((name, inner)) }
      inner.collectNamed(into: &found)
    case .array(let s), .map(let s): s.collectNamed(into: &found)
    case .object(let fields): for f in fields { f.shape.collectNamed(into: &found) }
    case .oneOf(let shapes): for s in shapes { s.collectNamed(into: &found) }
    default: break
    }
  }

  /// A JSON description for `nbridge plugins --json`: the TypeScript text of the shape.
  package var jsonDescription: JSONValue { .string(typeScript) }
}

private func tsName(_ name: String) -> String {
  let ok = name.first.map { $0.isLetter || $0 == "_" || $0 == "$" } ?? false
    && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
  return ok ? name : "'\(name)'"
}
