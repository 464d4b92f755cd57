/// The one value type that crosses the bridge: what `JSON.stringify` can express.
///
/// Plugins see their own `Codable` types; the runtime converts between JavaScript
/// and this enum in one place, and `JSONValueEncoder`/`JSONValueDecoder` convert
/// between this enum and Swift types.
public enum JSONValue: Sendable, Hashable {
  /// `null` (and `undefined`, which JSON cannot carry).
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// Any finite number; integers up to 2^53 are exact.
  case number(Double)
  /// A string, any Unicode.
  case string(String)
  /// An array of values of any kinds, in order.
  case array([JSONValue])
  /// An object, keeping its keys in insertion order as JavaScript does.
  case object(JSONObject)
}

extension JSONValue {
  /// The string, when this is one.
  public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
  /// The number, when this is one.
  public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
  /// The Boolean, when this is one.
  public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
  /// The elements, when this is an array.
  public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
  /// The object, when this is one.
  public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
  /// Whether this is `null`.
  public var isNull: Bool { if case .null = self { true } else { false } }

  /// A member of an object by key (nil for a missing key or a non-object).
  public subscript(key: String) -> JSONValue? { objectValue?[key] }

  /// An element of an array by position (nil when out of range or not an array).
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The JavaScript `typeof`-style name of this value's kind, for error messages.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .number: "number"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// A string literal.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An integer literal.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// A floating-point literal.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A Boolean literal.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// `nil` as `null`.
  public init(nilLiteral: ()) { self = .null }
  /// An array literal.
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  /// A dictionary literal, keeping its order.
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    var object = JSONObject()
    for (key, value) in elements { object[key] = value }
    self = .object(object)
  }
}

/// A JSON object: string keys in insertion order, each once.
public struct JSONObject: Sendable, Hashable, Sequence {
  /// The members in insertion order.
  public private(set) var members: [(key: String, value: JSONValue)] = []

  /// An empty object.
  public init() {}

  /// The number of members.
  public var count: Int { members.count }
  /// Whether the object has no members.
  public var isEmpty: Bool { members.isEmpty }
  /// The keys in insertion order.
  public var keys: [String] { members.map(\.key) }

  /// Reads, replaces, adds or (with nil) removes a member.
  public subscript(key: String) -> JSONValue? {
    get {
      for member in members where member.key == key { return member.value }
      return nil
    }
    set {
      if let index = members.firstIndex(where: { $0.key == key }) {
        if let newValue { members[index].value = newValue } else { members.remove(at: index) }
      } else if let newValue {
        members.append((key, newValue))
      }
    }
  }

  /// Reserves room for `count` members.
  public mutating func reserveCapacity(_ count: Int) { members.reserveCapacity(count) }

  /// Appends a member without looking for an existing one; for builders that know keys are unique.
  mutating func appendUnchecked(key: String, value: JSONValue) { members.append((key, value)) }

  /// Iterates the members in order.
  public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

  /// Objects are equal when they hold the same keys with equal values, in any order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    for (key, value) in lhs.members where rhs[key] != value { return false }
    return true
  }

  /// Hashes the keys and values independently of their order.
  public func hash(into hasher: inout Hasher) {
    var combined = 0
    for (key, value) in members {
      var h = Hasher()
      h.combine(key)
      h.combine(value)
      combined ^= h.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
  }
}
