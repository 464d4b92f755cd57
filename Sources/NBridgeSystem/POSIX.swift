#if canImport(Glibc)
  import Glibc
#endif

/// The system calls nbridge makes on files, in one place: each retried on `EINTR`, failing with
/// `SystemError` (what was attempted, and `errno`). The runtime and every built-in plugin use these.
package enum POSIX {
  /// `open(2)` with `O_CLOEXEC` added.
  package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(SystemError) -> Int32 {
    try retrying("open \(path)") { Glibc.open(path, flags | O_CLOEXEC, mode) }
  }

  /// `read(2)` until end of file, at most `limit` bytes (more is an error: the file is not what we wrote).
  package static func readAll(_ fd: Int32, limit: Int, what: String) throws(SystemError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = try retrying("read \(what)") { chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) } }
      if n == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<n])
      if bytes.count > limit { throw SystemError(operation: "read \(what)", code: EFBIG) }
    }
  }

  /// One `read(2)` into `buffer`: how many bytes it read (0 at the end of the file).
  package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, what: String) throws(SystemError)
    -> Int
  {
    try retrying("read \(what)") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
  }

  /// `write(2)` until every byte is written.
  package static func writeAll(_ fd: Int32, _ bytes: [UInt8], what: String) throws(SystemError) {
    var failure: SystemError?
    bytes.withUnsafeBytes { raw in
      do throws(SystemError) { try writeAll(fd, raw, what: what) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// `write(2)` until every byte of `bytes` is written.
  package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, what: String) throws(SystemError) {
    var offset = 0
    while offset < bytes.count {
      offset += try retrying("write \(what)") { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
    }
  }

  /// `send(2)` without SIGPIPE until every byte is sent or the reader has gone (a child that
  /// exits without reading all of its stdin just gets less); how many were sent.
  @discardableResult
  package static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Int {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      offset += n
    }
    return offset
  }

  /// `flock(2)`, waiting for the lock.
  package static func lock(_ fd: Int32, exclusive: Bool, what: String) throws(SystemError) {
    _ = try retrying("lock \(what)") { flock(fd, exclusive ? LOCK_EX : LOCK_SH) }
  }

  /// `flock(2)` without waiting: whether the exclusive lock was taken (false: another holds it).
  package static func tryLock(_ fd: Int32) -> Bool {
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      if errno != EINTR { return false }
    }
    return true
  }

  /// `flock(2)`: lets go of the lock on `fd`.
  package static func unlock(_ fd: Int32) {
    _ = flock(fd, LOCK_UN)
  }

  /// `rename(2)`: atomically replaces `target`.
  package static func rename(_ source: String, _ target: String) throws(SystemError) {
    _ = try retrying("rename \(source) to \(target)") { Glibc.rename(source, target) }
  }

  /// `unlink(2)`; false when there was nothing to remove.
  @discardableResult
  package static func unlink(_ path: String) throws(SystemError) -> Bool {
    if Glibc.unlink(path) == 0 { return true }
    if errno == ENOENT { return false }
    throw SystemError(operation: "remove \(path)", code: errno)
  }

  /// `mkdir -p`: creates `path` and its missing parents.
  package static func makeDirectories(_ path: String) throws(SystemError) {
    // Usually the folder is there already (every run makes its data folders): one call says so.
    if !path.isEmpty, mkdir(path, 0o700) == 0 || errno == EEXIST { return }
    var prefix = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      prefix.append("/")
      prefix.append(contentsOf: part)
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        throw SystemError(operation: "create \(prefix)", code: errno)
      }
    }
  }

  /// The whole file at `path`, at most `limit` bytes.
  package static func readFile(_ path: String, limit: Int = 1 << 30) throws(SystemError) -> [UInt8] {
    let fd = try open(path, O_RDONLY)
    defer { close(fd) }
    var info = stat()
    if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { throw SystemError(operation: "read \(path)", code: EISDIR) }
    let size = Int(info.st_size)
    guard info.st_mode & S_IFMT == S_IFREG, size > 0, size <= limit else { return try readAll(fd, limit: limit, what: path) }
    // A regular file: read into a buffer of its size (one more byte shows whether it grew meanwhile).
    var failure: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
      while count <= size {
        let n = Glibc.read(fd, buffer.baseAddress! + count, size + 1 - count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { failure = errno }
        if n <= 0 { break }
        count += n
      }
    }
    if failure != 0 { throw SystemError(operation: "read \(path)", code: failure) }
    if bytes.count > size { bytes += try readAll(fd, limit: limit, what: path) }
    if bytes.count > limit { throw SystemError(operation: "read \(path)", code: EFBIG) }
    return bytes
  }

  /// The whole file at `path` as UTF-8 text; nil when it cannot be read (`errno` says why).
  package static func readText(_ path: String) -> String? {
    do {
      return String(decoding: try readFile(path), as: UTF8.self)
    } catch {
      errno = error.code
      return nil
    }
  }

  /// Replaces `path` with `bytes` at once and durably: a temporary file beside it is written
  /// and `fsync`ed, renamed over `path`, and the folder is `fsync`ed so the rename survives a
  /// crash. A reader, or a process killed at any point, sees the old content or the new one.
  /// `syncs: false` keeps the atomic replace but skips both `fsync`s (about 0.7 ms on this
  /// machine's ext4): a kill never loses the write, a power cut may. `beforeRename` (tests)
  /// returning false stops there, as a crash between write and rename would.
  package static func writeAtomically(
    _ path: String, _ bytes: [UInt8], mode: mode_t = 0o600, syncs: Bool = true, beforeRename: (() -> Bool)? = nil
  ) throws(SystemError) {
    let temporary = "\(path).tmp-\(getpid())"
    let fd = try open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: mode)
    do {
      try writeAll(fd, bytes, what: temporary)
      if syncs { _ = try retrying("sync \(temporary)") { fsync(fd) } }
    } catch {
      close(fd)
      _ = try? unlink(temporary)
      throw error
    }
    close(fd)
    if let beforeRename, !beforeRename() { return }
    do {
      try rename(temporary, path)
    } catch {
      _ = try? unlink(temporary)
      throw error
    }
    guard syncs else { return }
    let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    let directory = try open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY)
    defer { close(directory) }
    _ = try retrying("sync \(folder)") { fsync(directory) }
  }

  /// Runs `body` holding an exclusive `flock` on `directory` (one process at a time).
  package static func withLock<T>(on directory: String, _ body: () throws -> T) throws -> T {
    let fd = try open(directory, O_RDONLY | O_DIRECTORY)
    defer { close(fd) }
    try lock(fd, exclusive: true, what: directory)
    return try body()
  }

  /// Calls `body` until it succeeds or fails with something other than `EINTR`.
  package static func retrying<T: BinaryInteger>(_ operation: @autoclosure () -> String, _ body: () -> T)
    throws(SystemError) -> T
  {
    while true {
      let result = body()
      if result >= 0 { return result }
      if errno != EINTR { throw SystemError(operation: operation(), code: errno) }
    }
  }
}

