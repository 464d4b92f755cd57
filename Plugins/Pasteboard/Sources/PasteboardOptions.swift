import NBridgePlugin

/// The largest text a pasteboard holds, in UTF-8 bytes (16 MiB); larger is `invalid_parameter`.
let maxTextBytes = 16 * 1024 * 1024

/// `{name?}`: which pasteboard; absent or null is the general one.
struct PasteboardOptions: Decodable, Sendable {
  var name: PasteboardName?

  init(name: PasteboardName? = nil) { self.name = name }

  init(from decoder: any Decoder) throws {
    if try decoder.singleValueContainer().decodeNil() { return }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decodeIfPresent(PasteboardName.self, forKey: .name)
  }

  private enum CodingKeys: String, CodingKey { case name }
}

/// `{name}`: a named pasteboard, required.
struct NamedPasteboardOptions: Decodable, Sendable {
  var name: PasteboardName
}

/// `{string, name?}`: the text to copy, at most `maxTextBytes`.
struct SetStringOptions: Decodable, Sendable {
  var string: String
  var name: PasteboardName?

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    string = try container.decode(String.self, forKey: .string)
    name = try container.decodeIfPresent(PasteboardName.self, forKey: .name)
    _ = try BridgeLimits.text(string, field: "string", maxBytes: maxTextBytes)
  }

  private enum CodingKeys: String, CodingKey { case string, name }
}

/// The `change` event's payload: which pasteboard (null for the general one) and its new count.
struct PasteboardChange: Encodable, Sendable, Equatable {
  var name: String?
  var changeCount: Int

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(changeCount, forKey: .changeCount)
  }

  private enum CodingKeys: String, CodingKey { case name, changeCount }
}
