/// Decodes a `Decodable` from a `JSONValue`; failures are `invalid_parameter` errors naming the field.
public struct JSONValueDecoder: Sendable {
  /// A decoder; it keeps no state between calls, so one can be made per call.
  public init() {}

  /// Decodes `type` from `value`.
  public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
    if T.self == JSONValue.self { return value as! T }
    return try T(from: ValueDecoder(value: value, codingPath: []))
  }
}

/// Describes a kind for messages: `a string`, `an object`.
func article(_ kind: String) -> String {
  switch kind.first {
  case "a", "e", "i", "o", "u": "an \(kind)"
  default: "a \(kind)"
  }
}

private func mismatch(_ path: [any CodingKey], _ expected: String, _ got: JSONValue) -> BridgeError {
  BridgeError.invalidParameter(formatCodingPath(path), "must be \(article(expected)) (got \(got.kindName))")
}

private struct ValueDecoder: Decoder {
  let value: JSONValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard case .object(let object) = value else { throw mismatch(codingPath, "object", value) }
    return KeyedDecodingContainer(KeyedContainer<Key>(object: object, codingPath: codingPath))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard case .array(let elements) = value else { throw mismatch(codingPath, "array", value) }
    return UnkeyedContainer(elements: elements, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleContainer(value: value, codingPath: codingPath)
  }
}

/// Shared scalar decoding for the three container kinds.
private func decodeScalar<T: Decodable>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
  switch type {
  case is JSONValue.Type: return value as! T
  case is String.Type:
    guard case .string(let s) = value else { throw mismatch(path, "string", value) }
    return s as! T
  case is Bool.Type:
    guard case .bool(let b) = value else { throw mismatch(path, "boolean", value) }
    return b as! T
  case is Double.Type:
    guard case .number(let n) = value else { throw mismatch(path, "number", value) }
    return n as! T
  case is Int.Type: return try integer(Int.self, value, path) as! T
  case is Int64.Type: return try integer(Int64.self, value, path) as! T
  case is Int32.Type: return try integer(Int32.self, value, path) as! T
  case is Int16.Type: return try integer(Int16.self, value, path) as! T
  case is Int8.Type: return try integer(Int8.self, value, path) as! T
  case is UInt.Type: return try integer(UInt.self, value, path) as! T
  case is UInt64.Type: return try integer(UInt64.self, value, path) as! T
  case is UInt32.Type: return try integer(UInt32.self, value, path) as! T
  case is UInt16.Type: return try integer(UInt16.self, value, path) as! T
  case is UInt8.Type: return try integer(UInt8.self, value, path) as! T
  case is Float.Type:
    guard case .number(let n) = value else { throw mismatch(path, "number", value) }
    guard Float(n).isFinite else {
      throw BridgeError.invalidParameter(formatCodingPath(path), "must be a number within ±\(Float.greatestFiniteMagnitude) (got \(n))")
    }
    return Float(n) as! T
  default:
    return try T(from: ValueDecoder(value: value, codingPath: path))
  }
}

/// An integer field: a whole number that `I` holds exactly, else `invalid_parameter` naming the field and the
/// range (beyond ±2^53 a double no longer holds every whole number, so that is where the range ends).
private func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> I {
  guard case .number(let n) = value else { throw mismatch(path, "integer", value) }
  let safe: Double = 9_007_199_254_740_991
  guard n == n.rounded(), abs(n) <= safe, let i = I(exactly: n) else {
    let low = I.min == 0 ? "0" : Double(I.min) < -safe ? "-9007199254740991" : "\(I.min)"
    let high = Double(I.max) > safe ? "9007199254740991" : "\(I.max)"
    let got = n == n.rounded() ? NumberText.javaScript(n) : "\(n)"
    throw BridgeError.invalidParameter(
      formatCodingPath(path), "must be a whole number from \(low) to \(high) (got \(got))")
  }
  return i
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  let object: JSONObject
  let codingPath: [any CodingKey]

  var allKeys: [Key] { object.keys.compactMap { Key(stringValue: $0) } }
  func contains(_ key: Key) -> Bool { object[key.stringValue] != nil }

  func value(for key: Key) throws -> JSONValue {
    guard let value = object[key.stringValue] else {
      throw BridgeError.invalidParameter(formatCodingPath(codingPath + [key]), "is required")
    }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool { (object[key.stringValue] ?? .null).isNull }

  // A raw `JSONValue` or a string field is returned without building the coding path (it is
  // only needed for errors and nested values) and without a dynamic cast or an optional of
  // the generic type (each asks the runtime for type metadata): the common fields of the hot path.

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let value = try value(for: key)
    if T.self == JSONValue.self { return unsafeBitCast(value, to: T.self) }
    if T.self == String.self, case .string(let string) = value { return unsafeBitCast(string, to: T.self) }
    return try decodeScalar(type, value, codingPath + [key])
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = object[key.stringValue] else { return nil }
    if T.self == JSONValue.self { return unsafeBitCast(value, to: T.self) }
    if T.self == String.self, case .string(let string) = value { return unsafeBitCast(string, to: T.self) }
    if value.isNull { return nil }
    return try decodeScalar(type, value, codingPath + [key])
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try ValueDecoder(value: try value(for: key), codingPath: codingPath + [key]).container(keyedBy: type)
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try ValueDecoder(value: try value(for: key), codingPath: codingPath + [key]).unkeyedContainer()
  }

  func superDecoder() throws -> any Decoder { ValueDecoder(value: .object(object), codingPath: codingPath) }
  func superDecoder(forKey key: Key) throws -> any Decoder {
    ValueDecoder(value: object[key.stringValue] ?? .null, codingPath: codingPath + [key])
  }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
  let elements: [JSONValue]
  let codingPath: [any CodingKey]
  var currentIndex = 0
  var count: Int? { elements.count }
  var isAtEnd: Bool { currentIndex >= elements.count }

  init(elements: [JSONValue], codingPath: [any CodingKey]) {
    self.elements = elements
    self.codingPath = codingPath
  }

  mutating func next() throws -> (JSONValue, [any CodingKey]) {
    let path = codingPath + [AnyCodingKey(intValue: currentIndex)]
    guard !isAtEnd else { throw BridgeError.invalidParameter(formatCodingPath(path), "is required") }
    defer { currentIndex += 1 }
    return (elements[currentIndex], path)
  }

  mutating func decodeNil() throws -> Bool {
    guard !isAtEnd, elements[currentIndex].isNull else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (value, path) = try next()
    return try decodeScalar(type, value, path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let (value, path) = try next()
    return try ValueDecoder(value: value, codingPath: path).container(keyedBy: type)
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let (value, path) = try next()
    return try ValueDecoder(value: value, codingPath: path).unkeyedContainer()
  }

  mutating func superDecoder() throws -> any Decoder {
    let (value, path) = try next()
    return ValueDecoder(value: value, codingPath: path)
  }
}

private struct SingleContainer: SingleValueDecodingContainer {
  let value: JSONValue
  let codingPath: [any CodingKey]
  func decodeNil() -> Bool { value.isNull }
  func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeScalar(type, value, codingPath) }
}
