import Glibc
import NBridgeSystem

/// Files changed together (an install's record, desktop entry and `mimeapps.list`): every new
/// content is first written and synced under a temporary name beside its file, and only when all
/// are written are they renamed into place. A failure while writing (a full disk, a folder that
/// is not one) or a kill then leaves every file as it was; the temporaries are removed.
struct StagedFiles {
  /// The changes in order: new bytes, or nil to remove the file.
  private(set) var changes: [(path: String, bytes: [UInt8]?)] = []

  /// Stages `bytes` as the new content of `path` (mode 0644).
  mutating func write(_ path: String, _ bytes: [UInt8]) { changes.append((path, bytes)) }

  /// Stages removing `path`.
  mutating func remove(_ path: String) { changes.append((path, nil)) }

  /// Writes every temporary, then renames (or removes) each into place. When a rename fails
  /// after others succeeded, the files this commit created are removed again.
  func commit() throws(SystemError) {
    let suffix = ".new-\(getpid())"
    var staged: [String] = []
    do {
      for (path, bytes) in changes {
        guard let bytes else { continue }
        try POSIX.makeDirectories(String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]))
        let temporary = path + suffix
        let fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        staged.append(temporary)
        defer { close(fd) }
        try POSIX.writeAll(fd, bytes, what: temporary)
        _ = try POSIX.retrying("sync \(temporary)") { fsync(fd) }
      }
    } catch {
      for temporary in staged { _ = try? POSIX.unlink(temporary) }
      throw error
    }
    var created: [String] = []
    do {
      for (path, bytes) in changes {
        if bytes == nil {
          try POSIX.unlink(path)
          continue
        }
        let existed = access(path, F_OK) == 0
        try POSIX.rename(path + suffix, path)
        if !existed { created.append(path) }
      }
    } catch {
      for path in created { _ = try? POSIX.unlink(path) }
      for temporary in staged { _ = try? POSIX.unlink(temporary) }
      throw error
    }
    var folders: [String] = []
    for (path, _) in changes {
      let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      if !folders.contains(folder) { folders.append(folder) }
    }
    for folder in folders {
      guard let fd = try? POSIX.open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY) else { continue }
      fsync(fd)
      close(fd)
    }
  }
}
