#if canImport(Glibc)
  import Glibc
#endif

extension POSIX {
  /// Why `readRegularFile` read nothing.
  package enum RegularFileFailure: Error {
    /// The path names something other than a regular file (a FIFO, a device, a socket, a folder).
    case notRegular
    /// The file is larger than the limit; its size in bytes.
    case tooLarge(Int64)
    /// A system call failed (no such file, no permission, ...).
    case system(SystemError)
  }

  /// The bytes of the regular file at `path`, at most `limit` of them. It is opened without
  /// blocking (a FIFO does not wait for a writer) and its type and size are checked on the open
  /// descriptor before a byte is read, so a FIFO or a device (`/dev/zero`) is refused at once.
  package static func readRegularFile(_ path: String, limit: Int) throws(RegularFileFailure) -> [UInt8] {
    let fd: Int32
    do {
      fd = try open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)
    } catch {
      throw .system(error)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .system(SystemError(operation: "stat \(path)", code: errno)) }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegular }
    guard Int64(info.st_size) <= Int64(limit) else { throw .tooLarge(Int64(info.st_size)) }
    do {
      return try readAll(fd, limit: limit, what: path)
    } catch {
      // It grew past the limit while it was read.
      if error.code == EFBIG { throw .tooLarge(Int64(limit) + 1) }
      throw .system(error)
    }
  }
}
