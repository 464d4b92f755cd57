import NBridgePlugin

/// `preference.get`'s options: `{key, defaultValue?, secure?}`, always in the default group.
struct PreferenceGetOptions: Decodable {
  let key: String
  let defaultValue: JSONValue
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    defaultValue = try fields.decodeIfPresent(JSONValue.self, forKey: .defaultValue) ?? .null
    secure = try StorageLimits.secure(try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  private enum Field: String, CodingKey { case key, defaultValue, secure }
}

/// `preference.set`'s options: `{key, value, secure?}`, with the value already written as JSON text.
struct PreferenceSetOptions: Decodable {
  let key: String
  let json: String
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    json = try StorageLimits.valueJSON(try fields.decodeIfPresent(JSONValue.self, forKey: .value))
    secure = try StorageLimits.secure(try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  private enum Field: String, CodingKey { case key, value, secure }
}

/// `preference.remove`'s options: `{key, secure?}`.
struct PreferenceKeyOptions: Decodable {
  let key: String
  let secure: Bool

  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    key = try StorageLimits.key(try fields.decodeIfPresent(JSONValue.self, forKey: .key))
    secure = try StorageLimits.secure(try fields.decodeIfPresent(JSONValue.self, forKey: .secure))
  }

  private enum Field: String, CodingKey { case key, secure }
}
