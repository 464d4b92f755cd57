import NBridgePlugin

/// `preference.get`'s options: `{key, defaultValue?}`, always in the default group.
struct PreferenceGetOptions: Decodable {
  let key: String
  let defaultValue: JSONValue

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    defaultValue = try fields.decodeIfPresent(JSONValue.self, forKey: .defaultValue) ?? .null
  }

  private enum Field: String, CodingKey { case key, defaultValue }
}

/// `preference.set`'s options: `{key, value}`, with the value already written as JSON text.
struct PreferenceSetOptions: Decodable {
  let key: String
  let json: String

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    json = try StorageLimits.valueJSON(try fields.decodeIfPresent(JSONValue.self, forKey: .value))
  }

  private enum Field: String, CodingKey { case key, value }
}

/// `preference.remove`'s options: `{key}`.
struct PreferenceKeyOptions: Decodable {
  let key: String

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
  }

  private enum Field: String, CodingKey { case key }
}
