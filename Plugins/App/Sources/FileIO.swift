#if canImport(Glibc)
  import Glibc
#endif

/// The few file operations the app plugin needs, on Glibc (no Foundation at start-up).
enum FileIO {
  /// The whole file as UTF-8 text, or nil when it cannot be read.
  static func read(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { return nil }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Replaces `path` with `text` all at once: writes a temporary file beside it, then
  /// renames it over `path`, so a reader (or a killed process) never sees half a file.
  static func writeAtomically(_ path: String, _ text: String) throws(FileError) {
    let temporary = "\(path).tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw FileError(operation: "create", path: temporary, code: errno) }
    var text = text
    let failure: Int32? = text.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return errno }
        offset += written
      }
      return nil
    }
    close(fd)
    if let failure {
      unlink(temporary)
      throw FileError(operation: "write", path: temporary, code: failure)
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw FileError(operation: "replace", path: path, code: code)
    }
  }

  /// Runs `body` holding an exclusive `flock` on `directory`, so two processes starting
  /// the same app at once do not both read the old count.
  static func withLock<T>(on directory: String, _ body: () throws -> T) throws -> T {
    let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { throw FileError(operation: "open", path: directory, code: errno) }
    defer { close(fd) }
    while flock(fd, LOCK_EX) != 0 {
      guard errno == EINTR else { throw FileError(operation: "lock", path: directory, code: errno) }
    }
    return try body()
  }
}

/// A file operation that failed, with `strerror`'s words.
struct FileError: Error, CustomStringConvertible {
  /// What was being done: `create`, `write`, `replace`, ...
  var operation: String
  /// The file.
  var path: String
  /// The `errno` value.
  var code: Int32

  /// `cannot write /path: No space left on device`.
  var description: String { "cannot \(operation) \(path): \(String(cString: strerror(code)))" }
}
