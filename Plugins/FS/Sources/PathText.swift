import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// Paths as text, and the few calls that turn them into canonical ones.
enum PathText {
  /// The longest path taken, in bytes (`PATH_MAX` less its NUL).
  static let maxBytes = Int(PATH_MAX) - 1
  /// `O_PATH` (Glibc's module leaves it out): a descriptor that only names a file or folder.
  static let pathOnly: Int32 = 0o1000_0000
  /// The longest name of one file, in bytes (`NAME_MAX`).
  static let maxNameBytes = Int(NAME_MAX)

  /// Refuses what cannot be a path: not absolute, a NUL, longer than `maxBytes` or a name longer
  /// than `maxNameBytes` (`invalid_parameter` naming `field`). One pass over the bytes.
  static func check(_ path: String, field: String) throws(BridgeError) {
    var text = path
    let (count, hasNUL, longestName) = text.withUTF8 { bytes -> (Int, Bool, Int) in
      var hasNUL = false
      var longest = 0
      var run = 0
      for byte in bytes {
        if byte == 0 { hasNUL = true }
        if byte == UInt8(ascii: "/") {
          longest = max(longest, run)
          run = 0
        } else {
          run += 1
        }
      }
      return (bytes.count, hasNUL, max(longest, run))
    }
    guard count <= maxBytes else {
      throw .invalidParameter(field, "must be at most \(maxBytes) bytes (got \(count))")
    }
    guard !hasNUL else { throw .invalidParameter(field, "must not contain NUL") }
    guard path.utf8.first == UInt8(ascii: "/") else {
      throw .invalidParameter(
        field, "must be an absolute path (fs.paths() gives the app's folders), got \(JSONValue.string(path).jsonText)")
    }
    if longestName > maxNameBytes { throw .invalidParameter(field, "has a name longer than \(maxNameBytes) bytes") }
  }

  /// The folder part and the last name of an absolute path; `.` and empty names are dropped, and
  /// a path ending in `..` (or `/`) is its own folder with the name `.`. The folder part may keep
  /// `.` and doubled slashes of the path as given (`/a/./b` for `/a/./b/c`): the system reads it
  /// as the same folder.
  static func split(_ path: String) -> (folder: String, name: String) {
    // The usual path, `/folder/name` with a plain last name: cut at the last slash, nothing made but the two parts.
    let utf8 = path.utf8
    if let slash = utf8.lastIndex(of: UInt8(ascii: "/")) {
      let start = utf8.index(after: slash)
      let length = utf8.distance(from: start, to: utf8.endIndex)
      let dots = utf8[start...].allSatisfy { $0 == UInt8(ascii: ".") }
      if length > 0, !(dots && length <= 2) {
        return (slash == utf8.startIndex ? "/" : String(path[..<slash]), String(path[start...]))
      }
    }
    let parts = path.split(separator: "/").filter { $0 != "." }
    guard let last = parts.last, last != ".." else { return (path.isEmpty ? "/" : path, ".") }
    return ("/" + parts.dropLast().joined(separator: "/"), String(last))
  }

  /// `folder/name` without a doubled slash, made in one allocation.
  static func join(_ folder: String, _ name: String) -> String {
    if folder == "/" { return "/" + name }
    var path = folder
    path.reserveCapacity(folder.utf8.count + 1 + name.utf8.count)
    path += "/"
    path += name
    return path
  }

  /// Whether the canonical `root` covers the canonical `path` (it or something beneath it).
  static func covers(_ root: String, _ path: String) -> Bool {
    path == root || root == "/"
      || (path.hasPrefix(root) && path.utf8.dropFirst(root.utf8.count).first == UInt8(ascii: "/"))
  }

  /// `realpath(3)`; nil (with `errno`) when it fails.
  static func realpath(_ path: String) -> String? {
    guard let resolved = Glibc.realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The path the kernel has for the folder `fd` holds (`/proc/self/fd/N`), or nil. The link's
  /// name is written into a buffer on the stack: an interpolated String cost every resolve ~1 k instructions.
  static func descriptorPath(_ fd: Int32) -> String? {
    let prefix = "/proc/self/fd/".utf8
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: prefix.count + 12) { name -> String? in
      var at = 0
      for byte in prefix {
        name[at] = CChar(bitPattern: byte)
        at += 1
      }
      // The descriptor's number (not negative: an open one) in decimal.
      var digits = 1
      var rest = fd / 10
      while rest > 0 {
        digits += 1
        rest /= 10
      }
      var value = fd
      for place in (at..<at + digits).reversed() {
        name[place] = CChar(48 + value % 10)
        value /= 10
      }
      name[at + digits] = 0
      return readLink(name.baseAddress!, in: AT_FDCWD)
    }
  }

  /// The target of the link `name` in the folder `fd`, or nil when it is not a link.
  static func linkTarget(_ fd: Int32, _ name: String) -> String? { readLink(name, in: fd) }

  private typealias Buffer = UnsafeMutableBufferPointer<CChar>

  /// The link's text, or nil (not a link, or longer than `PATH_MAX` less one). Read into 1 KiB on
  /// the stack first: a temporary allocation of `PATH_MAX` comes from the heap (~1.7 k
  /// instructions, twice a resolve); a text that fills it is read again into `PATH_MAX`.
  private static func readLink(_ name: UnsafePointer<CChar>, in fd: Int32) -> String? {
    if let short = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 1024, { readLink(name, in: fd, into: $0) }) {
      return short
    }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX) + 1) {
      readLink(name, in: fd, into: $0) ?? nil
    }
  }

  /// The link's text read into all but the last place of `buffer`: nil when it may not have fitted,
  /// `.some(nil)` when there is none.
  private static func readLink(_ name: UnsafePointer<CChar>, in fd: Int32, into buffer: Buffer) -> String?? {
    let count = readlinkat(fd, name, buffer.baseAddress!, buffer.count - 1)
    if count >= buffer.count - 1 { return nil }
    guard count > 0 else { return .some(nil) }
    return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
  }

  /// Where `path` would be once made: the canonical path of its deepest existing folder with the
  /// rest appended (`..` going up, `.` dropped); nil when no folder of it exists.
  static func lexicalCandidate(_ path: String) -> String? {
    var parts = path.split(separator: "/").map(String.init)
    var rest: [String] = []
    while true {
      if let base = realpath("/" + parts.joined(separator: "/")) {
        var result = base.split(separator: "/").map(String.init)
        for part in rest {
          if part == "." { continue }
          if part == ".." { _ = result.popLast() } else { result.append(part) }
        }
        return "/" + result.joined(separator: "/")
      }
      guard let last = parts.popLast() else { return nil }
      rest.insert(last, at: 0)
    }
  }
}
