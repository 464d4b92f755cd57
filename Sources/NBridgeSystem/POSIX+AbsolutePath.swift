#if canImport(Glibc)
  import Glibc
#endif

extension POSIX {
  /// `path` made absolute against the working directory, with `.` and `..` folded.
  package static func absolutePath(_ path: String) -> String {
    var base = ""
    if !path.hasPrefix("/") {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
      if getcwd(&buffer, buffer.count) != nil {
        base = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
    }
    var parts: [Substring] = []
    for part in (base + "/" + path).split(separator: "/") {
      if part == "." || part.isEmpty { continue }
      if part == ".." {
        _ = parts.popLast()
      } else {
        parts.append(part)
      }
    }
    // Appended part by part, each as a `String`: `joined(separator:)` and `+=` of a substring run
    // the standard library's generic code, whose first type lookups cost more than the path.
    if parts.isEmpty { return "/" }
    var result = ""
    for part in parts {
      result += "/"
      result += String(part)
    }
    return result
  }

  /// The environment variable `name`, or nil when it is unset or empty.
  package static func environmentValue(_ name: String) -> String? {
    guard let raw = getenv(name), let text = String(validatingCString: raw), !text.isEmpty else { return nil }
    return text
  }
}
