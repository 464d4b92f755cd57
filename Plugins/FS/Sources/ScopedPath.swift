import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// A path inside the scope, held by an open descriptor of its (canonical) folder and its last
/// name in it: every operation is a `*at` call on that descriptor with symbolic links not
/// followed, so what was checked is what is touched (FileScope says how it was found).
final class ScopedPath {
  /// The folder's descriptor (read-only, or `O_PATH` when the folder cannot be read).
  let folder: Int32
  /// The last name, `.` for the folder itself (the path `/`).
  let name: String
  /// The canonical path: no symbolic link, `.` or `..` in it.
  let path: String
  /// The path as the script gave it, for messages.
  let given: String
  /// The options field it came from (`path`, `from`, `to`).
  let field: String

  init(folder: Int32, name: String, path: String, given: String, field: String) {
    self.folder = folder
    self.name = name
    self.path = path
    self.given = given
    self.field = field
  }

  deinit { close(folder) }

  /// The error for `errno` `code` while doing `what` on this path.
  func failure(_ code: Int32, _ what: String) -> BridgeError { FileError.from(code, what, path: given, field: field) }

  /// `fstatat` without following a link; nil when nothing is there.
  func status() throws(BridgeError) -> stat? {
    var info = stat()
    if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { return info }
    if errno == ENOENT { return nil }
    throw failure(errno, "look at")
  }

  /// Opens the file itself (`O_NOFOLLOW`: a link put there since the check is refused, `ELOOP`).
  func open(_ flags: Int32, mode: mode_t = 0o666, what: String) throws(BridgeError) -> Int32 {
    while true {
      let fd = openat(folder, name, flags | O_NOFOLLOW | O_CLOEXEC, mode)
      if fd >= 0 { return fd }
      if errno == EINTR { continue }
      throw failure(errno, what)
    }
  }
}
