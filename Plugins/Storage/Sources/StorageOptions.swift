import NBridgePlugin

// Each options type reads its fields in `init(from:)` (the shape `nbridge types` and the drift test
// see) and straight from the call's value in `init(options:)` (the hot path: no decoder); both hand
// them to one initializer that checks them, in the same order, with the same errors.

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

  init(options: JSONValue) throws {
    guard case .object(let fields) = options else {
      self = try JSONValueDecoder().decode(Self.self, from: options)
      return
    }
    try self.init(
      key: fields["key"], group: fields["group"], defaultValue: fields["defaultValue"], secure: fields["secure"])
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

  init(options: JSONValue) throws {
    guard case .object(let fields) = options else {
      self = try JSONValueDecoder().decode(Self.self, from: options)
      return
    }
    try self.init(key: fields["key"], group: fields["group"], secure: fields["secure"])
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
      value: try fields.decodeIfPresent(JSONValue.self, forKey: .value),
      secure: try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  init(options: JSONValue) throws {
    guard case .object(let fields) = options else {
      self = try JSONValueDecoder().decode(Self.self, from: options)
      return
    }
    try self.init(key: fields["key"], group: fields["group"], value: fields["value"], secure: fields["secure"])
  }

  private init(key: JSONValue?, group: JSONValue?, value: JSONValue?, secure: JSONValue?) throws {
    self.key = try StorageLimits.key(key)
    self.group = try StorageLimits.group(group)
    json = try StorageLimits.valueJSON(value)
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
