import NBridgePlugin

// Each options type reads its fields in `init(from:)` (the shape `nbridge types` and the drift test
// see) and straight from the call's JSON text in `init(options:)` (the hot path: no decoder, no
// value of the whole options, and `set`'s value kept as the text it came as); both hand them to
// one initializer that checks them, in the same order, with the same errors.

/// Options naming one key: `{key, group?, secure?}`; with `{defaultValue?}` for `get`.
struct KeyOptions: OptionsFromJSON {
  let key: String
  let group: String
  let defaultValue: JSONValue
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    try self.init(
      key: try fields.decodeIfPresent(JSONValue.self, forKey: .key),
      group: try fields.decodeIfPresent(JSONValue.self, forKey: .group),
      defaultValue: try fields.decodeIfPresent(JSONValue.self, forKey: .defaultValue),
      secure: try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  init(options: OptionsText) throws {
    guard options.isObject else {
      self = try JSONValueDecoder().decode(Self.self, from: options.value)
      return
    }
    try self.init(
      key: options.value("key"), group: options.value("group"), defaultValue: options.value("defaultValue"),
      secure: options.value("secure"))
  }

  private init(key: JSONValue?, group: JSONValue?, defaultValue: JSONValue?, secure: JSONValue?) throws {
    self.key = try StorageLimits.key(key)
    self.group = try StorageLimits.group(group)
    self.defaultValue = defaultValue ?? .null
    self.secure = try StorageLimits.secure(secure)
  }

  private enum Field: String, CodingKey { case key, group, defaultValue, secure }
}

/// Options of `remove`: `{key, group?, secure?}`.
struct RemoveOptions: OptionsFromJSON {
  let key: String
  let group: String
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    try self.init(
      key: try fields.decodeIfPresent(JSONValue.self, forKey: .key),
      group: try fields.decodeIfPresent(JSONValue.self, forKey: .group),
      secure: try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  init(options: OptionsText) throws {
    guard options.isObject else {
      self = try JSONValueDecoder().decode(Self.self, from: options.value)
      return
    }
    try self.init(key: options.value("key"), group: options.value("group"), secure: options.value("secure"))
  }

  private init(key: JSONValue?, group: JSONValue?, secure: JSONValue?) throws {
    self.key = try StorageLimits.key(key)
    self.group = try StorageLimits.group(group)
    self.secure = try StorageLimits.secure(secure)
  }

  private enum Field: String, CodingKey { case key, group, secure }
}

/// Options of `set`: `{key, value, group?, secure?}`, with the value already written as JSON text.
struct SetOptions: OptionsFromJSON {
  let key: String
  let group: String
  let json: String
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    try self.init(
      key: try fields.decodeIfPresent(JSONValue.self, forKey: .key),
      group: try fields.decodeIfPresent(JSONValue.self, forKey: .group),
      value: { try StorageLimits.valueJSON(try fields.decodeIfPresent(JSONValue.self, forKey: .value)) },
      secure: try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  init(options: OptionsText) throws {
    guard options.isObject else {
      self = try JSONValueDecoder().decode(Self.self, from: options.value)
      return
    }
    try self.init(
      key: options.value("key"), group: options.value("group"),
      value: { try StorageLimits.valueJSON(text: options.jsonText("value")) }, secure: options.value("secure"))
  }

  /// `value` gives the value's JSON text, checked: its text as it came (`init(options:)`), or
  /// written from the decoded value.
  private init(key: JSONValue?, group: JSONValue?, value: () throws -> String, secure: JSONValue?) throws {
    self.key = try StorageLimits.key(key)
    self.group = try StorageLimits.group(group)
    json = try value()
    self.secure = try StorageLimits.secure(secure)
  }

  private enum Field: String, CodingKey { case key, value, group, secure }
}

/// Options naming only a group, all optional: `{group?, secure?}` or nothing at all.
struct GroupOptions: Decodable {
  let group: String
  let secure: Bool

  init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), single.decodeNil() {
      group = StorageLimits.defaultGroup
      secure = false
      return
    }
    let fields = try decoder.container(keyedBy: Field.self)
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
    secure = try StorageLimits.secure(try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  private enum Field: String, CodingKey { case group, secure }
}
