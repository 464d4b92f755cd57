import Glibc

/// Reads a whole file as UTF-8 text; nil when it cannot be read (`errno` says why).
package func readTextFile(_ path: String) -> String? { POSIX.readText(path) }

/// Whether `path` exists (any kind of file).
package func fileExists(_ path: String) -> Bool {
  var st = stat()
  return stat(path, &st) == 0
}

/// The folder part of `path` (all before its last `/`).
package func dirOf(_ path: String) -> String { String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) }

/// `path` made absolute against the working directory, with `.` and `..` folded.
package func absolutePath(_ path: String) -> String { POSIX.absolutePath(path) }

/// Creates `path` and its parents (mode 0700 for new folders); true when it exists afterwards.
package func makeDirectories(_ path: String) -> Bool {
  do { try POSIX.makeDirectories(path) } catch { return false }
  var st = stat()
  return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
}

/// Writes all of `text` to `fd`, retrying short writes; a failure (a closed stdout) is ignored.
package func writeAll(_ fd: Int32, _ text: String) {
  var text = text
  text.withUTF8 { buffer in _ = try? POSIX.writeAll(fd, UnsafeRawBufferPointer(buffer), what: "output") }
}

/// Writes to stderr.
package func writeError(_ text: String) { writeAll(2, text) }

/// The text of the current `errno`.
package func systemError() -> String {
  guard let message = strerror(errno) else { return "error \(errno)" }
  return String(validatingCString: message) ?? "error \(errno)"
}
