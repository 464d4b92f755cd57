import NBridgePlugin
import NBridgeSystem

/// Text a dialog shows: at most `maxBytes` bytes of UTF-8, else `invalid_parameter` naming `field`;
/// `line` refuses control characters (titles, labels), else only NUL.
func dialogText(_ text: String, field: String, maxBytes: Int, line: Bool) throws -> String {
  _ = try BridgeLimits.text(text, field: field, maxBytes: maxBytes)
  let bad = text.unicodeScalars.first { line ? ($0.value < 0x20 || $0.value == 0x7F) : $0.value == 0 }
  if let bad {
    throw BridgeError.invalidParameter(
      field, "must not contain control characters (found U+\(String(bad.value, radix: 16, uppercase: true)))")
  }
  return text
}

/// `defaultPath`: an absolute path; a folder (an existing one, or ending in `/`) is shown, a
/// file's folder is shown with its name proposed.
func defaultPlace(_ path: String?) throws -> (folder: String?, name: String?) {
  guard let path else { return (nil, nil) }
  _ = try dialogText(path, field: "defaultPath", maxBytes: 4096, line: true)
  guard path.hasPrefix("/") else { throw BridgeError.invalidParameter("defaultPath", "must be an absolute path") }
  if path.hasSuffix("/") || Directory.names(path) != nil { return (path, nil) }
  let slash = path.lastIndex(of: "/")!
  return (slash == path.startIndex ? "/" : String(path[..<slash]), String(path[path.index(after: slash)...]))
}

/// `filters`: at most 32, each `{name, extensions}` with 1 to 64 extensions of letters, digits,
/// `_`, `-`, `+` and `.` (no leading dot), or `*`.
func fileFilters(_ list: [FilterOption]?) throws -> [FileFilter] {
  guard let list else { return [] }
  guard list.count <= 32 else { throw BridgeError.invalidParameter("filters", "must hold at most 32 filters") }
  return try list.enumerated().map { index, filter in
    let name = try dialogText(filter.name, field: "filters[\(index)].name", maxBytes: 256, line: true)
    guard (1...64).contains(filter.extensions.count) else {
      throw BridgeError.invalidParameter("filters[\(index)].extensions", "must hold 1 to 64 extensions")
    }
    for (n, ext) in filter.extensions.enumerated() {
      let allowed =
        ext == "*"
        || (!ext.isEmpty && ext.utf8.count <= 32 && !ext.hasPrefix(".")
          && ext.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-+.".unicodeScalars.contains($0)
          })
      guard allowed else {
        throw BridgeError.invalidParameter(
          "filters[\(index)].extensions[\(n)]", "must be an extension such as \"txt\" (no dot, no wildcard but \"*\")")
      }
    }
    return FileFilter(name: name, extensions: filter.extensions)
  }
}

/// One of `filters`: `{name, extensions}`.
struct FilterOption: Decodable, Sendable {
  let name: String
  let extensions: [String]
}

/// `open`'s options.
struct OpenOptions: Decodable, Sendable {
  let request: FileDialogRequest
  init(from decoder: any Decoder) throws {
    let fields = try optionFields(decoder, Field.self)
    let multiple = try fields?.decodeIfPresent(Bool.self, forKey: .multiple) ?? false
    let directory = try fields?.decodeIfPresent(Bool.self, forKey: .directory) ?? false
    let filters = try fields?.decodeIfPresent([FilterOption].self, forKey: .filters)
    let title = try fields?.decodeIfPresent(String.self, forKey: .title)
    let path = try fields?.decodeIfPresent(String.self, forKey: .defaultPath)
    let place = try defaultPlace(path)
    request = FileDialogRequest(
      mode: directory ? .folder : .open, multiple: multiple,
      title: try title.map { try dialogText($0, field: "title", maxBytes: 1024, line: true) }, folder: place.folder,
      name: nil, filters: try fileFilters(filters))
  }
  private enum Field: String, CodingKey { case multiple, directory, filters, title, defaultPath }
}

/// `save`'s options.
struct SaveOptions: Decodable, Sendable {
  let request: FileDialogRequest
  init(from decoder: any Decoder) throws {
    let fields = try optionFields(decoder, Field.self)
    let filters = try fields?.decodeIfPresent([FilterOption].self, forKey: .filters)
    let title = try fields?.decodeIfPresent(String.self, forKey: .title)
    let path = try fields?.decodeIfPresent(String.self, forKey: .defaultPath)
    let place = try defaultPlace(path)
    request = FileDialogRequest(
      mode: .save, title: try title.map { try dialogText($0, field: "title", maxBytes: 1024, line: true) },
      folder: place.folder, name: place.name, filters: try fileFilters(filters))
  }
  private enum Field: String, CodingKey { case defaultPath, filters, title }
}

/// `message`'s options: `buttons` 1 to 4 labels (default `["OK"]`).
struct MessageOptions: Decodable, Sendable {
  let request: MessageDialogRequest
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    let message = try fields.decode(String.self, forKey: .message)
    let title = try fields.decodeIfPresent(String.self, forKey: .title)
    let kind = try fields.decodeIfPresent(String.self, forKey: .kind)
    let buttons = try fields.decodeIfPresent([String].self, forKey: .buttons) ?? ["OK"]
    guard (1...4).contains(buttons.count) else {
      throw BridgeError.invalidParameter("buttons", "must hold 1 to 4 labels")
    }
    for (n, label) in buttons.enumerated() where label.isEmpty {
      throw BridgeError.invalidParameter("buttons[\(n)]", "must not be empty")
    }
    request = MessageDialogRequest(
      kind: try messageKind(kind),
      title: try title.map { try dialogText($0, field: "title", maxBytes: 1024, line: true) },
      message: try dialogText(message, field: "message", maxBytes: 16384, line: false),
      buttons: try buttons.enumerated().map { try dialogText($1, field: "buttons[\($0)]", maxBytes: 256, line: true) },
      defaultButton: buttons.count - 1)
  }
  private enum Field: String, CodingKey { case message, title, kind, buttons }
}

/// `confirm`'s options: Cancel and OK (or the labels given), OK the default.
struct ConfirmOptions: Decodable, Sendable {
  let request: MessageDialogRequest
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    let message = try fields.decode(String.self, forKey: .message)
    let title = try fields.decodeIfPresent(String.self, forKey: .title)
    let kind = try fields.decodeIfPresent(String.self, forKey: .kind)
    let ok = try fields.decodeIfPresent(String.self, forKey: .okLabel) ?? "_OK"
    let cancel = try fields.decodeIfPresent(String.self, forKey: .cancelLabel) ?? "_Cancel"
    request = MessageDialogRequest(
      kind: kind == nil ? .question : try messageKind(kind),
      title: try title.map { try dialogText($0, field: "title", maxBytes: 1024, line: true) },
      message: try dialogText(message, field: "message", maxBytes: 16384, line: false),
      buttons: [
        try dialogText(cancel, field: "cancelLabel", maxBytes: 256, line: true),
        try dialogText(ok, field: "okLabel", maxBytes: 256, line: true),
      ], defaultButton: 1)
  }
  private enum Field: String, CodingKey { case message, title, kind, okLabel, cancelLabel }
}

/// `kind`: `info` (default), `warning` or `error`.
func messageKind(_ kind: String?) throws -> MessageDialogRequest.Kind {
  switch kind {
  case nil, "info": return .info
  case "warning": return .warning
  case "error": return .error
  default: throw BridgeError.invalidParameter("kind", "must be \"info\", \"warning\" or \"error\"")
  }
}

/// `simulate`'s `{answers}`: at most 64.
struct SimulateOptions: Decodable, Sendable {
  let answers: [JSONValue]
  init(from decoder: any Decoder) throws {
    let fields = try decoder.container(keyedBy: Field.self)
    answers = try fields.decode([JSONValue].self, forKey: .answers)
    guard answers.count <= 64 else { throw BridgeError.invalidParameter("answers", "must hold at most 64 answers") }
  }
  private enum Field: String, CodingKey { case answers }
}

/// The fields of an options object, nil when the call passed none.
func optionFields<K: CodingKey>(_ decoder: any Decoder, _ keys: K.Type) throws -> KeyedDecodingContainer<K>? {
  if let single = try? decoder.singleValueContainer(), single.decodeNil() { return nil }
  return try decoder.container(keyedBy: K.self)
}
