import NBridgePlugin
import NBridgeSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The files and folders the user picked for an app (in a `dialog`), kept in the app's data
/// folder as `fs-grants.json` so they last across launches; `fs.forget` takes one back.
///
/// This is the API the `dialog` plugin calls when the user picks a path:
/// `try FileGrants(dataDirectory: context.dataDirectory).record(path, folder: isFolder)`.
/// The file sits beside `$APPDATA` (`<data folder>/files`), not in it, so a script cannot grant
/// itself a path by writing it. Paths are kept canonical (links and `..` resolved when picked).
package final class FileGrants: Sendable {
  /// `<data folder>/fs-grants.json`.
  package let file: String
  /// The picks as last read, and the file's identity then (inode, change time, size).
  private let state = Mutex<(picks: Picks, stamp: [Int])>((Picks(), []))

  /// Picked files (exact) and folders (everything beneath).
  struct Picks {
    var files: Set<String> = []
    var folders: [String] = []
  }

  /// The picks of the app whose data folder is `dataDirectory`.
  package init(dataDirectory: String) { file = dataDirectory + "/fs-grants.json" }

  /// Records that the user picked `path` (a folder covers everything beneath it). Its folder
  /// must exist (a save dialog's new file is fine); `invalid_parameter` when it is no absolute
  /// path, `unavailable` when the record cannot be written.
  package func record(_ path: String, folder: Bool) throws(BridgeError) {
    try PathText.check(path, field: "path")
    guard let canonical = Self.canonical(path) else {
      throw FileError.from(errno, "find the folder of", path: path, field: "path")
    }
    try update { picks in
      if folder {
        if !picks.folders.contains(canonical) { picks.folders.append(canonical) }
      } else {
        picks.files.insert(canonical)
      }
    }
  }

  /// Takes back the pick of `path` (as picked, or the same file by another path), or every pick
  /// when nil; how many were taken back.
  package func forget(_ path: String?) throws(BridgeError) -> Int {
    var removed = 0
    let names = path.map { [$0, Self.canonical($0) ?? $0] } ?? []
    try update { picks in
      if path == nil {
        removed = picks.files.count + picks.folders.count
        picks = Picks()
        return
      }
      for name in Set(names) {
        if picks.files.remove(name) != nil { removed += 1 }
        if let index = picks.folders.firstIndex(of: name) {
          picks.folders.remove(at: index)
          removed += 1
        }
      }
    }
    return removed
  }

  /// Whether a pick covers the canonical `path`; the file is read again when it changed.
  func covers(_ path: String) -> Bool {
    let picks = load()
    return picks.files.contains(path) || picks.folders.contains { PathText.covers($0, path) }
  }

  /// The canonical form of `path`: `realpath`, or its folder's and its name when it does not exist yet.
  static func canonical(_ path: String) -> String? {
    if let resolved = PathText.realpath(path) { return resolved }
    let (folder, name) = PathText.split(path)
    guard name != ".", let base = PathText.realpath(folder) else { return nil }
    return PathText.join(base, name)
  }

  private func load() -> Picks {
    var info = stat()
    guard stat(file, &info) == 0 else {
      state.withLock { $0 = (Picks(), []) }
      return Picks()
    }
    let stamp = [Int(info.st_ino), info.st_ctim.tv_sec, info.st_ctim.tv_nsec, Int(info.st_size)]
    if let picks = state.withLock({ $0.stamp == stamp ? $0.picks : nil }) { return picks }
    var picks = Picks()
    if let text = POSIX.readText(file), let json = try? JSONValue(parsing: text) {
      let strings = { (key: String) in (json[key]?.arrayValue ?? []).compactMap(\.stringValue) }
      picks = Picks(files: Set(strings("files")), folders: strings("folders"))
    }
    state.withLock { $0 = (picks, stamp) }
    return picks
  }

  /// Reads, changes and writes the picks under a lock, so two runs of the app lose none.
  private func update(_ change: (inout Picks) -> Void) throws(BridgeError) {
    let folder = String(file[..<file.lastIndex(of: "/")!])
    do {
      try POSIX.makeDirectories(folder)
      let lock = try POSIX.open(file + ".lock", O_RDWR | O_CREAT)
      defer { close(lock) }
      try POSIX.lock(lock, exclusive: true, what: file)
      state.withLock { $0.stamp = [] }
      var picks = load()
      change(&picks)
      let json: JSONValue = [
        "files": .array(picks.files.sorted().map { .string($0) }), "folders": .array(picks.folders.map { .string($0) }),
      ]
      try POSIX.writeAtomically(file, Array((json.jsonText + "\n").utf8))
      state.withLock { $0.stamp = [] }
    } catch {
      throw .unavailable("cannot record the user's picks in \(file): \(error)")
    }
  }
}
