import NBridgePlugin
import NBridgeSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension ScopedPath {
  /// Replaces the file with `bytes` at once and durably, as the storage layer writes: a new
  /// file beside it (`.nbridge-tmp-<pid>-<n>`, created exclusively) is written, `fsync`ed and
  /// renamed over the path, then the folder is `fsync`ed. A reader, or a run killed at any
  /// point, sees the old content or the new. An existing file keeps its permission bits.
  func replace(with bytes: [UInt8]) throws(BridgeError) {
    try replace { fd throws(BridgeError) in try writeAll(fd, bytes, "write") }
  }

  /// `write(2)` until every byte of `bytes` is written to `fd`.
  func writeAll(_ fd: Int32, _ bytes: [UInt8], _ what: String) throws(BridgeError) {
    do { try POSIX.writeAll(fd, bytes, what: what) } catch { throw failure(error.code, what) }
  }

  /// Replaces the file with what `fill` writes to the new file's descriptor (see `replace(with:)`).
  func replace(_ fill: (Int32) throws(BridgeError) -> Void) throws(BridgeError) {
    let existing = try status()
    if let existing, existing.st_mode & S_IFMT == S_IFDIR { throw failure(EISDIR, "write") }
    let temporary = Self.temporaryName()
    var fd: Int32
    repeat { fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666) } while fd < 0
      && errno == EINTR
    guard fd >= 0 else { throw failure(errno, "write") }
    do throws(BridgeError) {
      if let existing, existing.st_mode & S_IFMT == S_IFREG { fchmod(fd, existing.st_mode & 0o7777) }
      try fill(fd)
      guard fsync(fd) == 0 else { throw failure(errno, "write") }
      close(fd)
      fd = -1
      guard renameat(folder, temporary, folder, name) == 0 else { throw failure(errno, "write") }
    } catch {
      if fd >= 0 { close(fd) }
      unlinkat(folder, temporary, 0)
      throw error
    }
    // The rename lasts once the folder is on disk (an O_PATH descriptor cannot be synced: skipped).
    _ = fsync(folder)
  }

  /// Appends `bytes` (`O_APPEND`: one write at the end, created when missing; not a replace).
  func append(_ bytes: [UInt8]) throws(BridgeError) {
    let fd = try open(O_WRONLY | O_APPEND | O_CREAT | O_NOCTTY | O_NONBLOCK, what: "append to")
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure(errno, "append to") }
    guard info.st_mode & S_IFMT == S_IFREG else { throw failure(EISDIR, "append to") }
    try writeAll(fd, bytes, "append to")
    guard fsync(fd) == 0 else { throw failure(errno, "append to") }
  }

  /// Copies the regular file `source` here, replacing what is here at once (`replace`).
  func copy(from source: ScopedPath) throws(BridgeError) {
    let input = try source.open(O_RDONLY | O_NONBLOCK | O_NOCTTY, what: "read")
    defer { close(input) }
    var info = stat()
    guard fstat(input, &info) == 0 else { throw source.failure(errno, "read") }
    try source.requireRegular(info)
    try replace { output throws(BridgeError) in
      fchmod(output, info.st_mode & 0o7777)
      let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 1)
      defer { chunk.deallocate() }
      while true {
        let count: Int
        do throws(SystemError) {
          count = try POSIX.read(input, into: chunk, what: "read")
        } catch {
          throw source.failure(error.code, "read")
        }
        if count == 0 { return }
        do throws(SystemError) {
          try POSIX.writeAll(output, UnsafeRawBufferPointer(rebasing: chunk[..<count]), what: "write")
        } catch {
          throw failure(error.code, "write")
        }
      }
    }
  }

  /// Moves what is here to `target` (`renameat`: at once, replacing a file there).
  func move(to target: ScopedPath) throws(BridgeError) {
    guard try status() != nil else { throw failure(ENOENT, "move") }
    guard renameat(folder, name, target.folder, target.name) == 0 else {
      let code = errno
      throw code == EXDEV || code == EISDIR || code == ENOTDIR || code == ENOTEMPTY || code == EEXIST
        ? target.failure(code, "move to") : failure(code, "move")
    }
  }

  /// A name for a new file no other write uses: this process's id and a count.
  private static func temporaryName() -> String {
    ".nbridge-tmp-\(getpid())-\(temporaryCount.add(1, ordering: .relaxed).newValue)"
  }
}

/// How many temporary files this process has named.
private let temporaryCount = Atomic<Int>(0)
