import Glibc
import NBridgeRuntime
import NBridgeSystem

/// The scratch folder of one test file: its data and shared folders.
package enum TemporaryFolder {
  /// A new folder under `TMPDIR` (or /tmp), or nil when it cannot be made.
  package static func make() -> String? {
    let base = ProcessEnvironment.value("TMPDIR") ?? "/tmp"
    var template = Array((base + "/nbridge-test-XXXXXX").utf8CString)
    guard let result = mkdtemp(&template) else { return nil }
    return String(validatingCString: result)
  }

  /// Removes `path` and everything in it (symbolic links are removed, not followed).
  package static func remove(_ path: String) {
    guard let names = Directory.names(path) else {
      unlink(path)
      return
    }
    for name in names {
      let child = path + "/" + name
      var info = stat()
      if lstat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR { remove(child) } else { unlink(child) }
    }
    rmdir(path)
  }
}
