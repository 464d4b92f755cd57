/// `JSONValue` is itself `Codable`, so options and results can hold any JSON value.
extension JSONValue: Codable {
  /// Decodes any JSON value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let b = try? container.decode(Bool.self) {
      self = .bool(b)
    } else if let n = try? container.decode(Double.self) {
      self = .number(n)
    } else if let s = try? container.decode(String.self) {
      self = .string(s)
    } else if let a = try? container.decode([JSONValue].self) {
      self = .array(a)
    } else {
      let keyed = try decoder.container(keyedBy: AnyCodingKey.self)
      var object = JSONObject()
      for key in keyed.allKeys { object[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key) }
      self = .object(object)
    }
  }

  /// Encodes this value.
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var c = encoder.singleValueContainer()
      try c.encodeNil()
    case .bool(let b):
      var c = encoder.singleValueContainer()
      try c.encode(b)
    case .number(let n):
      var c = encoder.singleValueContainer()
      try c.encode(n)
    case .string(let s):
      var c = encoder.singleValueContainer()
      try c.encode(s)
    case .array(let a):
      var c = encoder.unkeyedContainer()
      for element in a { try c.encode(element) }
    case .object(let o):
      var c = encoder.container(keyedBy: AnyCodingKey.self)
      for (key, value) in o { try c.encode(value, forKey: AnyCodingKey(stringValue: key)) }
    }
  }
}
