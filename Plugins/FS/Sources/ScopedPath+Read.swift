import NBridgePlugin
import NBridgeSystem

#if canImport(Glibc)
  import Glibc
#endif

extension ScopedPath {
  /// The bytes of the regular file, at most `limit` of them: a folder, a FIFO or a device is
  /// refused before a byte is read (`invalid_parameter` naming the field), and so is a file
  /// larger than `limit`, with its size and the limit (`action` names who has it). Read
  /// straight into memory the bytes own, which a `Uint8Array` then adopts without a copy.
  func readBytes(limit: Int, action: String) throws(BridgeError) -> Bytes {
    let fd = try open(O_RDONLY | O_NONBLOCK | O_NOCTTY, what: "read")
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure(errno, "read") }
    try requireRegular(info)
    let size = Int(info.st_size)
    guard size <= limit else { throw tooLarge(size, limit: limit, action: action) }
    // One byte more than the size: a file that grew meanwhile is read on to its end (or the limit).
    var failed: SystemError?
    let bytes = Bytes(unsafeUninitializedCapacity: size + 1) { buffer, count in
      do throws(SystemError) {
        while count < buffer.count {
          let rest = UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...]))
          let n = try POSIX.read(fd, into: rest, what: "read")
          if n == 0 { break }
          count += n
        }
      } catch {
        failed = error
      }
    }
    if let failed { throw failure(failed.code, "read") }
    guard bytes.count > size else { return bytes }
    var grown = bytes.bytes
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    defer { chunk.deallocate() }
    while true {
      let n: Int
      do throws(SystemError) {
        n = try POSIX.read(fd, into: chunk, what: "read")
      } catch {
        throw failure(error.code, "read")
      }
      if n == 0 { return Bytes(grown) }
      grown += UnsafeRawBufferPointer(rebasing: chunk[..<n])
      if grown.count > limit { throw tooLarge(grown.count, limit: limit, action: action) }
    }
  }

  /// `invalid_parameter` unless `info` is a regular file's.
  func requireRegular(_ info: stat) throws(BridgeError) {
    switch info.st_mode & S_IFMT {
    case S_IFREG: return
    case S_IFDIR: throw failure(EISDIR, "read")
    default: throw .invalidParameter(field, "names \(FileKind(info.st_mode).phrase), not a regular file: \(quoted)")
    }
  }

  /// The path as given, in quotes.
  var quoted: String { JSONValue.string(given).jsonText }

  private func tooLarge(_ size: Int, limit: Int, action: String) -> BridgeError {
    .invalidParameter(
      field,
      "names a file of \(size) bytes; \(action) reads at most \(limit) bytes (\(limit >> 20) MiB)\(action == "readTextFile" ? ": read it in parts with another tool, or as bytes with readFile if it fits" : ""): \(quoted)"
    )
  }

  /// `{kind, size, modified, accessed, mode}` of what the path names (a link is described, not followed).
  func describe() throws(BridgeError) -> JSONValue {
    guard let info = try status() else { throw failure(ENOENT, "look at") }
    func milliseconds(_ time: timespec) -> JSONValue { .number(Double(time.tv_sec) * 1000 + Double(time.tv_nsec / 1_000_000)) }
    return [
      "kind": .string(FileKind(info.st_mode).rawValue), "size": .number(Double(info.st_size)),
      "modified": milliseconds(info.st_mtim), "accessed": milliseconds(info.st_atim),
      "mode": .number(Double(info.st_mode & 0o7777)),
    ]
  }

  /// The folder's entries, `[{name, kind}]` sorted by name (a link's kind is `symlink`).
  func list() throws(BridgeError) -> JSONValue {
    let fd = try open(O_RDONLY | O_DIRECTORY, what: "list")
    guard let directory = fdopendir(fd) else {
      let code = errno
      close(fd)
      throw failure(code, "list")
    }
    defer { closedir(directory) }
    var entries: [(String, FileKind)] = []
    let descriptor = dirfd(directory)
    while let entry = readdir(directory) {
      let name = Directory.name(of: entry)
      if name == "." || name == ".." { continue }
      var info = stat()
      let kind = fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? FileKind(info.st_mode) : .other
      entries.append((name, kind))
    }
    entries.sort { $0.0 < $1.0 }
    return .array(entries.map { ["name": .string($0.0), "kind": .string($0.1.rawValue)] })
  }
}

/// What a directory entry is, as `stat` and `readDir` name it.
enum FileKind: String {
  case file, folder, symlink, other

  init(_ mode: mode_t) {
    switch mode & S_IFMT {
    case S_IFREG: self = .file
    case S_IFDIR: self = .folder
    case S_IFLNK: self = .symlink
    default: self = .other
    }
  }

  /// `a FIFO`, `a device`..., for messages.
  var phrase: String {
    switch self {
    case .file: "a file"
    case .folder: "a folder"
    case .symlink: "a symbolic link"
    case .other: "a special file (a FIFO, a socket or a device)"
    }
  }
}
