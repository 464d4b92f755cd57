import NBridgePlugin

/// `{path}`: the one path most actions take.
struct PathOptions: Decodable, Sendable {
  var path: String
}

/// `{path, recursive?}`: `mkdir` (make missing parents) and `remove` (a folder with all it holds).
struct TreeOptions: Decodable, Sendable {
  var path: String
  var recursive: Bool?
}

/// `writeTextFile({path, contents})`.
struct TextWriteOptions: Decodable, Sendable {
  var path: String
  var contents: String
}

/// `writeFile({path, data})`: `data` a `Uint8Array` (or an `ArrayBuffer`, another view).
struct BytesWriteOptions: Decodable, Sendable {
  var path: String
  var data: Bytes
}

/// `appendFile({path, contents?, data?})`: text or bytes, one of the two.
struct AppendOptions: Decodable, Sendable {
  var path: String
  var contents: String?
  var data: Bytes?
}

/// `rename({from, to})` and `copyFile({from, to})`.
struct MoveOptions: Decodable, Sendable {
  var from: String
  var to: String
}

/// `unwatch({path?})` and `forget({path?})`: one path, or every one.
struct OptionalPathOptions: Decodable, Sendable {
  var path: String?
}

/// `simulatePick({path, folder?})`.
struct PickOptions: Decodable, Sendable {
  var path: String
  var folder: Bool?
}

/// The shapes `nbridge types` prints.
enum FSShapes {
  static let path = Shape.fields(["path": .string])
  static let tree = Shape.fields(["path": .string, "recursive?": .boolean])
  static let textWrite = Shape.fields(["path": .string, "contents": .string])
  static let bytesWrite = Shape.fields(["path": .string, "data": .bytes])
  static let append = Shape.fields(["path": .string, "contents?": .string, "data?": .bytes])
  static let move = Shape.fields(["from": .string, "to": .string])
  static let optionalPath = Shape.fields(["path?": .string])
  static let pick = Shape.fields(["path": .string, "folder?": .boolean])
  static let kind = Shape.oneOf([.literal("file"), .literal("folder"), .literal("symlink"), .literal("other")])
  static let stat = Shape.named(
    "FileInfo",
    .fields(["kind": kind, "size": .integer, "modified": .number, "accessed": .number, "mode": .integer]))
  static let entries = Shape.array(.named("DirEntry", .fields(["name": .string, "kind": kind])))
  static let change = Shape.named(
    "FileChange",
    .fields(["kind": .oneOf([.literal("create"), .literal("modify"), .literal("remove")]), "path": .string]))
  static let paths = Shape.fields(["data": .string, "cache": .string, "config": .string])
  static let count = Shape.fields(["count": .integer])
}
