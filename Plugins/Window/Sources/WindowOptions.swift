import NBridgePlugin

/// Options naming a window: `id`, the main window (`main`) when left out.
protocol WindowTargeted: Decodable, Sendable {
  var id: String { get }
}

/// The fields of an options object, nil when the call passed none.
func optionFields<K: CodingKey>(_ decoder: any Decoder, _ keys: K.Type) throws -> KeyedDecodingContainer<K>? {
  if let single = try? decoder.singleValueContainer(), single.decodeNil() { return nil }
  return try decoder.container(keyedBy: K.self)
}

/// `value` when it is in `range`, else `invalid_parameter` naming `field`. (Options read every
/// field before they check any: the shape recorder sees them all.)
func pixels(_ value: Int, _ field: String, in range: ClosedRange<Int>) throws -> Int {
  guard range.contains(value) else {
    throw BridgeError.invalidParameter(
      field, "must be a whole number of pixels from \(range.lowerBound) to \(range.upperBound) (got \(value))")
  }
  return value
}

/// `{id?}`.
struct WindowTarget: WindowTargeted {
  let id: String
  init(from decoder: any Decoder) throws {
    id = try optionFields(decoder, Field.self)?.decodeIfPresent(String.self, forKey: .id) ?? "main"
  }
  private enum Field: String, CodingKey { case id }
}

/// `setTitle`'s `{title, id?}`: at most 1 KiB, one line without control characters.
struct TitleOptions: WindowTargeted {
  static let maxTitleBytes = 1024
  let title: String
  let id: String
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    let title = try fields.decode(String.self, forKey: .title)
    id = try fields.decodeIfPresent(String.self, forKey: .id) ?? "main"
    self.title = try Self.checked(title)
  }
  /// `title` when it is at most 1 KiB without control characters, else `invalid_parameter`.
  static func checked(_ title: String) throws -> String {
    _ = try BridgeLimits.text(title, field: "title", maxBytes: maxTitleBytes)
    if title.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      throw BridgeError.invalidParameter("title", "must not contain control characters")
    }
    return title
  }
  private enum Field: String, CodingKey { case title, id }
}

/// `setSize`'s `{width, height, id?}`, each from 100 to 16384 pixels (the manifest's bounds).
struct SizeOptions: WindowTargeted {
  let width: Int
  let height: Int
  let id: String
  init(from decoder: any Decoder) throws {
    try self.init(decoder, least: 100)
  }
  init(_ decoder: any Decoder, least: Int) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    let width = try fields.decode(Int.self, forKey: .width)
    let height = try fields.decode(Int.self, forKey: .height)
    id = try fields.decodeIfPresent(String.self, forKey: .id) ?? "main"
    self.width = try pixels(width, "width", in: least...16384)
    self.height = try pixels(height, "height", in: least...16384)
  }
  private enum Field: String, CodingKey { case width, height, id }
}

/// `setMinSize`'s `{width, height, id?}`, each from 1 to 16384 pixels.
struct MinSizeOptions: WindowTargeted {
  let size: SizeOptions
  var id: String { size.id }
  init(from decoder: any Decoder) throws { size = try SizeOptions(decoder, least: 1) }
}

/// `setPosition`'s `{x, y, id?}`, each from -16384 to 16384.
struct PositionOptions: WindowTargeted {
  let x: Int
  let y: Int
  let id: String
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    let x = try fields.decode(Int.self, forKey: .x)
    let y = try fields.decode(Int.self, forKey: .y)
    id = try fields.decodeIfPresent(String.self, forKey: .id) ?? "main"
    self.x = try pixels(x, "x", in: -16384...16384)
    self.y = try pixels(y, "y", in: -16384...16384)
  }
  private enum Field: String, CodingKey { case x, y, id }
}

/// `setFullscreen`'s `{fullscreen, id?}`.
struct FullscreenOptions: WindowTargeted {
  let value: Bool
  let id: String
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    value = try fields.decode(Bool.self, forKey: .fullscreen)
    id = try fields.decodeIfPresent(String.self, forKey: .id) ?? "main"
  }
  private enum Field: String, CodingKey { case fullscreen, id }
}

/// `setAlwaysOnTop`'s `{alwaysOnTop, id?}`.
struct AlwaysOnTopOptions: WindowTargeted {
  let value: Bool
  let id: String
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    value = try fields.decode(Bool.self, forKey: .alwaysOnTop)
    id = try fields.decodeIfPresent(String.self, forKey: .id) ?? "main"
  }
  private enum Field: String, CodingKey { case alwaysOnTop, id }
}

/// `create`'s `{url, title?, width?, height?}`.
struct CreateOptions: Decodable, Sendable {
  let url: String
  let title: String?
  let width: Int?
  let height: Int?
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    let url = try fields.decode(String.self, forKey: .url)
    let title = try fields.decodeIfPresent(String.self, forKey: .title)
    let width = try fields.decodeIfPresent(Int.self, forKey: .width)
    let height = try fields.decodeIfPresent(Int.self, forKey: .height)
    self.url = try BridgeLimits.text(url, field: "url", maxBytes: 8192)
    guard !url.isEmpty, !url.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }) else {
      throw BridgeError.invalidParameter("url", "must be a non-empty path or URL without spaces or control characters")
    }
    self.title = try title.map { try TitleOptions.checked($0) }
    self.width = try width.map { try pixels($0, "width", in: 100...16384) }
    self.height = try height.map { try pixels($0, "height", in: 100...16384) }
  }
  private enum Field: String, CodingKey { case url, title, width, height }
}

/// `keepOpen`'s `{id, result?}`.
struct KeepOpenOptions: Decodable, Sendable {
  let id: String
  let result: JSONValue?
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    id = try fields.decode(String.self, forKey: .id)
    result = try fields.decodeIfPresent(JSONValue.self, forKey: .result)
  }
  private enum Field: String, CodingKey { case id, result }
}

/// `{id}`: `create`'s result and the payload of most events.
struct WindowID: Encodable {
  let id: String
}

/// `resized`'s payload.
struct WindowSize: Encodable {
  let id: String
  let width: Int
  let height: Int
}

/// `moved`'s payload.
struct WindowPosition: Encodable {
  let id: String
  let x: Int
  let y: Int
}
