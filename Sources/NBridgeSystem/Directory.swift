#if canImport(Glibc)
  import Glibc
#endif

/// Listing a folder. An entry's name is read where `readdir` put it, up to its NUL: `readdir`
/// hands out records only as long as their name (`d_reclen`), so copying `dirent`'s 256-byte
/// `d_name` whole (as `entry.pointee.d_name` does) reads past a record at the end of glibc's
/// buffer and can fault there (Foundation's `Process.run` crashed that way reading `/proc/self/fd`).
package enum Directory {
  /// The names in the folder at `path` other than `.` and `..`, in `readdir`'s order; nil when it
  /// cannot be opened (missing, or no folder).
  package static func names(_ path: String) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = name(of: entry)
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The name of the entry `readdir` returned, read in place up to its NUL.
  package static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
    let start = UnsafeRawPointer(entry) + nameOffset
    return String(cString: start.assumingMemoryBound(to: CChar.self))
  }

  /// Where `d_name` starts in a `dirent`.
  private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
}
