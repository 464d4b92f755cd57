/// Encodes an `Encodable` as a `JSONValue`.
public struct JSONValueEncoder: Sendable {
  /// An encoder; it keeps no state between calls, so one can be made per call.
  public init() {}

  /// Encodes `value`; non-finite numbers are an `invalid_parameter` error, as JSON cannot carry them.
  public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
    if let json = value as? JSONValue { return json }
    let box = Box()
    try value.encode(to: ValueEncoder(box: box, codingPath: []))
    return box.resolved()
  }
}

/// Where an encoded value is built; containers write through it.
private final class Box {
  enum Content {
    case empty
    case value(JSONValue)
    case object([(String, Box)])
    case array([Box])
  }
  var content: Content = .empty

  func resolved() -> JSONValue {
    switch content {
    case .empty: return .null
    case .value(let v): return v
    case .array(let boxes): return .array(boxes.map { $0.resolved() })
    case .object(let members):
      var object = JSONObject()
      for (key, box) in members { object[key] = box.resolved() }
      return .object(object)
    }
  }

  func child(key: String) -> Box {
    let box = Box()
    if case .object(var members) = content {
      content = .empty
      members.append((key, box))
      content = .object(members)
    } else {
      content = .object([(key, box)])
    }
    return box
  }

  func appendElement() -> Box {
    let box = Box()
    if case .array(var elements) = content {
      content = .empty
      elements.append(box)
      content = .array(elements)
    } else {
      content = .array([box])
    }
    return box
  }
}

private func scalar<T: Encodable>(_ value: T, _ path: [any CodingKey]) throws -> JSONValue? {
  switch value {
  case let v as JSONValue: return v
  case let v as String: return .string(v)
  case let v as Bool: return .bool(v)
  case let v as Double:
    guard v.isFinite else { throw BridgeError.invalidParameter(formatCodingPath(path), "must be a finite number") }
    return .number(v)
  case let v as Float:
    guard v.isFinite else { throw BridgeError.invalidParameter(formatCodingPath(path), "must be a finite number") }
    return .number(Double(v))
  case let v as Int: return .number(Double(v))
  case let v as Int64: return .number(Double(v))
  case let v as Int32: return .number(Double(v))
  case let v as UInt64: return .number(Double(v))
  case let v as UInt: return .number(Double(v))
  default: return nil
  }
}

private func encodeInto<T: Encodable>(_ box: Box, _ value: T, _ path: [any CodingKey]) throws {
  if let json = try scalar(value, path) {
    box.content = .value(json)
  } else {
    try value.encode(to: ValueEncoder(box: box, codingPath: path))
  }
}

private struct ValueEncoder: Encoder {
  let box: Box
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = box.content {} else { box.content = .object([]) }
    return KeyedEncodingContainer(KeyedContainer<Key>(box: box, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = box.content {} else { box.content = .array([]) }
    return UnkeyedContainer(box: box, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleContainer(box: box, codingPath: codingPath)
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let box: Box
  let codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { box.child(key: key.stringValue).content = .value(.null) }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encodeInto(box.child(key: key.stringValue), value, codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
    -> KeyedEncodingContainer<NestedKey>
  {
    ValueEncoder(box: box.child(key: key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ValueEncoder(box: box.child(key: key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { ValueEncoder(box: box.child(key: "super"), codingPath: codingPath) }
  mutating func superEncoder(forKey key: Key) -> any Encoder {
    ValueEncoder(box: box.child(key: key.stringValue), codingPath: codingPath + [key])
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let box: Box
  let codingPath: [any CodingKey]
  var count: Int {
    if case .array(let elements) = box.content { return elements.count }
    return 0
  }

  mutating func encodeNil() throws { box.appendElement().content = .value(.null) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = codingPath + [AnyCodingKey(intValue: count)]
    try encodeInto(box.appendElement(), value, path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    ValueEncoder(box: box.appendElement(), codingPath: codingPath).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    ValueEncoder(box: box.appendElement(), codingPath: codingPath).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder { ValueEncoder(box: box.appendElement(), codingPath: codingPath) }
}

private struct SingleContainer: SingleValueEncodingContainer {
  let box: Box
  let codingPath: [any CodingKey]
  mutating func encodeNil() throws { box.content = .value(.null) }
  mutating func encode<T: Encodable>(_ value: T) throws { try encodeInto(box, value, codingPath) }
}
