#if canImport(Glibc)
  import Glibc
#endif

/// The raw system calls the pasteboard makes, each retried on `EINTR` and failing with `SystemError`.
enum POSIX {
  /// `open(2)` with `O_CLOEXEC` added.
  static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError) -> Int32 {
    try retrying("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
  }

  /// `read(2)` until end of file, at most `limit` bytes (more is an error: the file is not what we wrote).
  static func readAll(_ fd: Int32, limit: Int, what: String) throws(SystemError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = try retrying("read \(what)") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
      if n == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > limit { throw SystemError(operation: "read \(what)", code: EFBIG) }
    }
  }

  /// `write(2)` until every byte is written.
  static func writeAll(_ fd: Int32, _ bytes: [UInt8], what: String) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      let n = try retrying("write \(what)") {
        bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
      }
      offset += n
    }
  }

  /// `flock(2)`, waiting for the lock.
  static func lock(_ fd: Int32, exclusive: Bool, what: String) throws(SystemError) {
    _ = try retrying("lock \(what)") { flock(fd, exclusive ? LOCK_EX : LOCK_SH) }
  }

  /// `rename(2)`: atomically replaces `target`.
  static func rename(_ source: String, _ target: String) throws(SystemError) {
    _ = try retrying("rename \(source) to \(target)") { Glibc.rename(source, target) }
  }

  /// `unlink(2)`; false when there was nothing to remove.
  @discardableResult
  static func unlink(_ path: String) throws(SystemError) -> Bool {
    if Glibc.unlink(path) == 0 { return true }
    if errno == ENOENT { return false }
    throw SystemError(operation: "remove \(path)", code: errno)
  }

  /// `mkdir -p`: creates `path` and its missing parents.
  static func makeDirectories(_ path: String) throws(SystemError) {
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      prefix += "/" + part
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        throw SystemError(operation: "create \(prefix)", code: errno)
      }
    }
  }

  /// Calls `body` until it succeeds or fails with something other than `EINTR`.
  static func retrying<T: BinaryInteger>(_ operation: @autoclosure () -> String, _ body: () -> T)
    throws(SystemError) -> T
  {
    while true {
      let result = body()
      if result >= 0 { return result }
      if errno != EINTR { throw SystemError(operation: operation(), code: errno) }
    }
  }
}

/// A failed system call: what was attempted and `errno`.
struct SystemError: Error, CustomStringConvertible {
  /// What was attempted, with the path.
  var operation: String
  /// The `errno` value.
  var code: Int32

  /// `cannot <operation>: <strerror>`.
  var description: String { "cannot \(operation): \(String(cString: strerror(code)))" }
}
