import NBridgePlugin

/// Options naming one key: `{key, group?}`; with `{defaultValue?}` for `get`.
struct KeyOptions: Decodable {
  let key: String
  let group: String
  let defaultValue: JSONValue

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
    defaultValue = try fields.decodeIfPresent(JSONValue.self, forKey: .defaultValue) ?? .null
  }

  private enum Field: String, CodingKey { case key, group, defaultValue }
}

/// Options of `remove`: `{key, group?}`.
struct RemoveOptions: Decodable {
  let key: String
  let group: String

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
  }

  private enum Field: String, CodingKey { case key, group }
}

/// Options of `set`: `{key, value, group?}`, with the value already written as JSON text.
struct SetOptions: Decodable {
  let key: String
  let group: String
  let json: String

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
    json = try StorageLimits.valueJSON(try fields.decodeIfPresent(JSONValue.self, forKey: .value))
  }

  private enum Field: String, CodingKey { case key, value, group }
}

/// Options naming only a group, all optional: `{group?}` or nothing at all.
struct GroupOptions: Decodable {
  let group: String

  init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), single.decodeNil() {
      group = StorageLimits.defaultGroup
      return
    }
    let fields = try decoder.container(keyedBy: Field.self)
    group = try StorageLimits.group(try fields.decodeIfPresent(JSONValue.self, forKey: .group))
  }

  private enum Field: String, CodingKey { case group }
}
