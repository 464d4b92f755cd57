import NBridgePlugin

/// Options naming one key: `{key, group?, secure?}`; with `{defaultValue?}` for `get`.
struct KeyOptions: Decodable {
  let key: String
  let group: String
  let defaultValue: JSONValue
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
    defaultValue = try fields.decodeIfPresent(JSONValue.self, forKey: .defaultValue) ?? .null
    secure = try StorageLimits.secure(try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  private enum Field: String, CodingKey { case key, group, defaultValue, secure }
}

/// Options of `remove`: `{key, group?, secure?}`.
struct RemoveOptions: Decodable {
  let key: String
  let group: String
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
    secure = try StorageLimits.secure(try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  private enum Field: String, CodingKey { case key, group, secure }
}

/// Options of `set`: `{key, value, group?, secure?}`, with the value already written as JSON text.
struct SetOptions: Decodable {
  let key: String
  let group: String
  let json: String
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
    json = try StorageLimits.valueJSON(try fields.decodeIfPresent(JSONValue.self, forKey: .value))
    secure = try StorageLimits.secure(try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
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
