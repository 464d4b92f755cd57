import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// How a plugin package names nbridge in its `Package.swift`.
enum NBridgeDependency {
  /// A git URL, with `from:` this build's version.
  case url(String)
  /// A local checkout.
  case path(String)

  /// A URL when `text` has a scheme (`https://`, `file://`) or is an scp-style `git@host:path`; else a folder.
  init(_ text: String) {
    if text.contains("://") || text.hasPrefix("git@") {
      self = .url(text)
    } else {
      self = .path(absolutePath(text))
    }
  }

  /// The package's identity, which `.product(name:package:)` names: the URL's or folder's last part, less `.git`.
  var identity: String {
    let text: String
    switch self {
    case .url(let url): text = url
    case .path(let path): text = path
    }
    var last = String(text.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? "nbridge")
    if last.hasSuffix(".git") { last.removeLast(4) }
    return last.lowercased()
  }

  /// The `.package(...)` line.
  var declaration: String {
    switch self {
    case .url(let url): ".package(url: \"\(url)\", from: \"\(NBridgeVersion.current)\")"
    case .path(let path): ".package(path: \"\(path)\")"
    }
  }
}
