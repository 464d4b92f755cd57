extension Shape {
  /// The shape a `Decodable` type reads, found by decoding it once from a decoder that records
  /// what its `init(from:)` asks for: each key and the type decoded for it (a field read with
  /// `decodeIfPresent`, or checked with `contains` or `decodeNil` first, is optional), arrays by
  /// their element, `[String: T]` as a map, and `String` enums that are `CaseIterable` as their
  /// literals. `JSONValue` is `.any`; a type that asks for nothing (`NoOptions`) is `.void`.
  ///
  /// The recorder hands out non-empty sample values (`"x"`, `1`, `true`, an enum's first case)
  /// so that most validation in `init(from:)` passes; when it throws all the same, the shape is
  /// what was asked before the throw. `Action` uses this when it is given no `options:` shape,
  /// so an action's options are described by the type that decodes them.
  ///
  /// - Parameter type: the options type, such as `struct HelloOptions: Decodable { var name: String }`
  ///   (which is `{ name: string }`).
  public init<T: Decodable>(decoding type: T.Type) {
    if let (_, shape) = ShapeRecorder.sample(T.self) {
      self = shape
      return
    }
    let node = ShapeRecorder.Node()
    _ = try? T(from: ShapeRecorder(node: node, codingPath: []))
    self = node.shape
  }
}

/// A `Decoder` that answers every question with a sample value and writes down what was asked.
struct ShapeRecorder: Decoder {
  /// What one decoder (one value) was asked.
  final class Node {
    /// Each key in the order first asked: its shape, or the node of its nested container.
    var fields: [(name: String, shape: Shape, nested: Node?, optional: Bool)] = []
    var keyed = false
    var map = false
    var mapValue: Shape?
    var unkeyed = false
    var element: Shape?
    var single: Shape?

    var shape: Shape {
      if keyed {
        if map { return .map(mapValue ?? .any) }
        return .object(fields.map { Field($0.name, $0.nested?.shape ?? $0.shape, optional: $0.optional) })
      }
      if unkeyed { return .array(element ?? .any) }
      return single ?? .void
    }

    func record(_ name: String, _ shape: Shape, nested: Node? = nil, optional: Bool) {
      if let index = fields.firstIndex(where: { $0.name == name }) {
        fields[index].optional = fields[index].optional || optional
        if case .any = fields[index].shape { fields[index].shape = shape }
        if let nested { fields[index].nested = nested }
      } else {
        fields.append((name, shape, nested, optional))
      }
    }
  }

  let node: Node
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// The sample and shape of the types the recorder answers itself; nil for the rest.
  static func sample<T: Decodable>(_ type: T.Type) -> (T, Shape)? {
    if T.self == JSONValue.self { return (JSONValue.string("x") as! T, .any) }
    if T.self == String.self { return ("x" as! T, .string) }
    if T.self == Bytes.self { return (Bytes([]) as! T, .bytes) }
    if T.self == Bool.self { return (true as! T, .boolean) }
    if let integer = T.self as? any BinaryInteger.Type { return (one(integer) as! T, .integer) }
    if let float = T.self as? any BinaryFloatingPoint.Type { return (one(float) as! T, .number) }
    if let cases = T.self as? any (CaseIterable & RawRepresentable).Type, let (first, literals) = stringCases(cases) {
      return (first as! T, literals.count == 1 ? .literal(literals[0]) : .oneOf(literals.map { .literal($0) }))
    }
    return nil
  }

  /// A sample of `type` and its shape, by recording its `init(from:)` when it is no simple type.
  func value<T: Decodable>(_ type: T.Type, at key: (any CodingKey)?) throws -> (T, Shape) {
    if let sample = Self.sample(T.self) { return sample }
    let child = Node()
    let value = try T(from: ShapeRecorder(node: child, codingPath: codingPath + (key.map { [$0] } ?? [])))
    return (value, child.shape)
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    node.keyed = true
    return KeyedDecodingContainer(Keyed<Key>(recorder: self))
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    node.unkeyed = true
    return Unkeyed(recorder: self)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(recorder: self) }

  private static func one<I: BinaryInteger>(_ type: I.Type) -> I { 1 }
  private static func one<F: BinaryFloatingPoint>(_ type: F.Type) -> F { 1 }
  private static func stringCases<C: CaseIterable & RawRepresentable>(_ type: C.Type) -> (C, [String])? {
    let all = Array(C.allCases)
    let literals = all.compactMap { $0.rawValue as? String }
    guard let first = all.first, literals.count == all.count else { return nil }
    return (first, literals)
  }

  struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: ShapeRecorder
    /// Keys whose presence was checked (`contains`, `decodeNil`): `decodeIfPresent` asks both.
    private let checked = Checked()
    final class Checked { var names: Set<String> = [] }

    init(recorder: ShapeRecorder) { self.recorder = recorder }

    var codingPath: [any CodingKey] { recorder.codingPath }

    /// One made-up key when `Key` takes any string (a `[String: T]`): the value decoded for it is the map's.
    var allKeys: [Key] {
      guard let key = Key(stringValue: "\u{1}map-key") else { return [] }
      recorder.node.map = true
      return [key]
    }

    func contains(_ key: Key) -> Bool {
      checked.names.insert(key.stringValue)
      return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
      checked.names.insert(key.stringValue)
      return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      let (value, shape) = try recorder.value(T.self, at: key)
      if recorder.node.map {
        recorder.node.mapValue = shape
      } else {
        recorder.node.record(key.stringValue, shape, optional: checked.names.contains(key.stringValue))
      }
      return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      try nested(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try nested(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { ShapeRecorder(node: Node(), codingPath: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder { ShapeRecorder(node: Node(), codingPath: codingPath) }

    /// A decoder for a nested container, whose node gives the field its shape.
    private func nested(_ key: Key) -> ShapeRecorder {
      let child = Node()
      recorder.node.record(key.stringValue, .any, nested: child, optional: checked.names.contains(key.stringValue))
      return ShapeRecorder(node: child, codingPath: codingPath + [key])
    }
  }

  struct Unkeyed: UnkeyedDecodingContainer {
    let recorder: ShapeRecorder
    var currentIndex = 0
    var codingPath: [any CodingKey] { recorder.codingPath }
    var count: Int? { 1 }
    var isAtEnd: Bool { currentIndex >= 1 }

    init(recorder: ShapeRecorder) { self.recorder = recorder }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let (value, shape) = try recorder.value(T.self, at: nil)
      recorder.node.element = shape
      currentIndex += 1
      return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      currentIndex += 1
      return try ShapeRecorder(node: Node(), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      currentIndex += 1
      return Unkeyed(recorder: ShapeRecorder(node: Node(), codingPath: codingPath))
    }

    mutating func superDecoder() throws -> any Decoder { ShapeRecorder(node: Node(), codingPath: codingPath) }
  }

  struct Single: SingleValueDecodingContainer {
    let recorder: ShapeRecorder
    var codingPath: [any CodingKey] { recorder.codingPath }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let (value, shape) = try recorder.value(T.self, at: nil)
      if !recorder.node.keyed && !recorder.node.unkeyed { recorder.node.single = shape }
      return value
    }
  }
}
