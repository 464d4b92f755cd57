import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// Where apps' control sockets live: `$XDG_RUNTIME_DIR/nbridge/<app id>.sock`, or, when
/// `XDG_RUNTIME_DIR` is unset (containers, `su`, cron), `/tmp/nbridge-<uid>/` — the folder
/// tmux and ssh-agent would pick, checked the same way: owned by this user, a real folder
/// (not a symlink), mode 0700.
package enum ControlPaths {
  /// The folder of every control socket of this user.
  package static var folder: String {
    if let runtime = ProcessEnvironment.value("XDG_RUNTIME_DIR") { return runtime + "/nbridge" }
    return "/tmp/nbridge-\(geteuid())"
  }

  /// The control socket of the app `id`.
  package static func socket(forApp id: String) -> String { folder + "/" + id + ".sock" }

  /// The lock file that serialises claiming the socket of the app `id`.
  static func lock(forApp id: String) -> String { folder + "/" + id + ".lock" }

  /// The app ids that have a socket in the folder (running, or stale ones a killed run left).
  package static func socketAppIDs() -> [String] {
    var ids: [String] = []
    for name in Directory.names(folder) ?? [] {
      guard name.hasSuffix(".sock") else { continue }
      let id = String(name.dropLast(5))
      if AppID.isValid(id) { ids.append(id) }
    }
    return ids.sorted()
  }

  /// Creates the folder (mode 0700) if missing and checks it: a folder, not a symlink, owned
  /// by this user; a wider mode is narrowed to 0700. Throws a one-line reason otherwise.
  package static func prepareFolder() throws(ControlSocketError) {
    let folder = self.folder
    do { try POSIX.makeDirectories(folder) } catch { throw ControlSocketError(error.description) }
    var info = stat()
    guard lstat(folder, &info) == 0 else { throw ControlSocketError("cannot read \(folder): \(SystemError(operation: "", code: errno).reason)") }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw ControlSocketError("\(folder) is not a folder") }
    guard info.st_uid == geteuid() else { throw ControlSocketError("\(folder) belongs to uid \(info.st_uid), not to this user") }
    if info.st_mode & 0o777 != 0o700, chmod(folder, 0o700) != 0 {
      throw ControlSocketError("cannot make \(folder) private (mode 0700)")
    }
  }
}

/// Why the control socket could not be used: one line.
package struct ControlSocketError: Error, CustomStringConvertible {
  /// What went wrong.
  package var description: String
  init(_ description: String) { self.description = description }
}
