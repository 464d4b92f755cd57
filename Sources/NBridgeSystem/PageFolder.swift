import Glibc

/// The folder of the app's page or entry script: `nbridge app` serves it under its URI scheme, and
/// a headless `fetch` reads it for relative and `file:` URLs. A request's path maps to a file
/// inside it, never outside (`..` and symbolic links that lead out are not found).
package struct PageFolder: Sendable {
  /// The folder's real path, without a trailing slash.
  package let root: String

  /// The folder at `path`, resolved to its real path; nil when it is not a folder.
  package init?(_ path: String) {
    guard let real = realPath(path) else { return nil }
    var info = stat()
    guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
    root = real
  }

  /// The file a request path names (`/` is `index.html`), when it lies inside the folder.
  package func file(forRequestPath path: String) -> String? {
    var decoded = PercentDecoding.decoded(path)
    if decoded.isEmpty || decoded.hasSuffix("/") { decoded += "index.html" }
    guard !decoded.split(separator: "/").contains("..") else { return nil }
    return insideFile(root + (decoded.hasPrefix("/") ? "" : "/") + decoded)
  }

  /// What a `file:` URL's percent-encoded absolute path names: a file inside the folder, one
  /// missing there (under the folder's real path or `alias`, its path as the user wrote it), or
  /// a place outside it (a symbolic link leading out is outside).
  package func lookUp(absolutePath path: String, alias: String) -> Lookup {
    var decoded = PercentDecoding.decoded(path)
    if decoded.hasSuffix("/") { decoded += "index.html" }
    return lookUp(path: decoded, alias: alias)
  }

  /// What the absolute file path `path` names: the rule of `lookUp(absolutePath:alias:)`, which
  /// `fetch` and the module loader share (a path with a `..` part is outside).
  package func lookUp(path: String, alias: String) -> Lookup {
    guard !path.split(separator: "/").contains("..") else { return .outside }
    if let real = realPath(path) {
      guard real.hasPrefix(root + "/") else { return .outside }
      return PageFolder.kind(ofReal: real)
    }
    let under = path.hasPrefix(root + "/") || path.hasPrefix(alias + "/")
    return under ? .missing : .outside
  }

  /// What `lookUp(absolutePath:alias:)` found.
  package enum Lookup: Equatable {
    /// A regular file, by its real path.
    case file(String)
    /// Nothing there, or a folder.
    case missing
    /// A place outside the folder.
    case outside
    /// A FIFO, a device or a socket, by its real path.
    case notRegular(String)
  }

  /// What the real path `real` names: a regular file, something else, or nothing (a folder).
  package static func kind(ofReal real: String) -> Lookup {
    var info = stat()
    guard stat(real, &info) == 0 else { return .missing }
    switch info.st_mode & S_IFMT {
    case S_IFREG: return .file(real)
    case S_IFDIR: return .missing
    default: return .notRegular(real)
    }
  }

  private func insideFile(_ path: String) -> String? {
    guard let real = realPath(path), real.hasPrefix(root + "/") else { return nil }
    var info = stat()
    guard stat(real, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    return real
  }

  /// The bytes of a file, or nil when it cannot be read.
  package static func contents(of path: String) -> [UInt8]? { try? POSIX.readFile(path) }

  /// The content type for a file name, by its extension.
  package static func mimeType(of path: String) -> String {
    let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
    switch ext {
    case "html", "htm": return "text/html; charset=utf-8"
    case "js", "mjs": return "text/javascript; charset=utf-8"
    case "css": return "text/css; charset=utf-8"
    case "json", "map": return "application/json"
    case "txt": return "text/plain; charset=utf-8"
    case "svg": return "image/svg+xml"
    case "png": return "image/png"
    case "jpg", "jpeg": return "image/jpeg"
    case "gif": return "image/gif"
    case "webp": return "image/webp"
    case "ico": return "image/x-icon"
    case "wasm": return "application/wasm"
    case "woff2": return "font/woff2"
    case "woff": return "font/woff"
    case "ttf": return "font/ttf"
    default: return "application/octet-stream"
    }
  }
}

/// realpath(3), or nil.
package func realPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}
