import Glibc
import NBridgePlugin
import NBridgeSystem

extension AppSetup {
  /// The largest `nbridge.json` read (1 MiB); a bigger one is a usage error.
  package static let manifestSizeLimit = 1 << 20

  /// `nbridge.json` in the folder of `entry`.
  package static func manifestPath(forEntry entry: String) -> String {
    let path = POSIX.absolutePath(entry)
    return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) + "/nbridge.json"
  }

  /// The manifest beside `entry`, or nil when the folder holds nothing named `nbridge.json`.
  /// Something there that cannot be read as a manifest is a problem, never "no manifest": the
  /// defaults allow every service.
  package static func manifestFile(forEntry entry: String) throws(Problem) -> AppManifest? {
    let path = manifestPath(forEntry: entry)
    guard let text = try readManifestText(path) else { return nil }
    return try parseManifest(text, path: path)
  }

  /// The text of the manifest at `path`, or nil when there is no such entry at all (a dangling
  /// symlink is one). It must be a regular file of at most `manifestSizeLimit` bytes of UTF-8; a
  /// FIFO is opened without blocking and refused, as are folders and devices.
  static func readManifestText(_ path: String) throws(Problem) -> String? {
    var info = stat()
    if lstat(path, &info) != 0 {
      if errno == ENOENT { return nil }
      throw Problem(description: "\(path): cannot read the manifest: \(SystemError(operation: "", code: errno).reason)")
    }
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else {
      throw Problem(description: "\(path): cannot read the manifest: \(SystemError(operation: "", code: errno).reason)")
    }
    defer { close(fd) }
    guard fstat(fd, &info) == 0 else {
      throw Problem(description: "\(path): cannot read the manifest: \(SystemError(operation: "", code: errno).reason)")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw Problem(description: "\(path): the manifest must be a regular file, not \(kind(info.st_mode))")
    }
    let tooBig = Problem(description: "\(path): the manifest is larger than \(manifestSizeLimit / 1024) KiB")
    guard Int(info.st_size) <= manifestSizeLimit else { throw tooBig }
    let bytes: [UInt8]
    do {
      bytes = try POSIX.readAll(fd, limit: manifestSizeLimit, what: path)
    } catch  where error.code == EFBIG {
      throw tooBig
    } catch {
      throw Problem(description: "\(path): cannot read the manifest: \(error.reason)")
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw Problem(description: "\(path): the manifest is not UTF-8 text")
    }
    return text
  }

  /// What a file of mode `mode` is, for a message: `a folder`, `a FIFO`, ...
  static func kind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a folder"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "a special file"
    }
  }
}
