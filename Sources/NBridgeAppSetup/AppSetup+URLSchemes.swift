import NBridgePlugin

extension AppSetup {
  /// Schemes the desktop, the web or the system own: an app may not claim them.
  static let reservedSchemes: Set<String> = [
    "http", "https", "file", "ftp", "ftps", "sftp", "ssh", "mailto", "tel", "sms", "data", "javascript", "about",
    "blob", "ws", "wss", "nbridge", "resource", "geo", "news", "nntp", "irc", "ircs", "ldap", "urn", "magnet",
    "smb", "nfs", "webcal", "xmpp", "callto", "trash", "recent", "computer", "network", "x-scheme-handler",
  ]

  /// `urlSchemes`: each a lowercase RFC 3986 scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`),
  /// not one of `reservedSchemes`, listed once.
  static func urlSchemes(_ value: JSONValue?, path: String) throws(Problem) -> [String]? {
    guard let value else { return nil }
    guard case .array(let items) = value else {
      throw Problem(description: "\(path): field \"urlSchemes\" must be an array of URL schemes such as \"myapp\"")
    }
    guard items.count <= maximumURLSchemes else {
      throw Problem(
        description: "\(path): field \"urlSchemes\" lists \(items.count) schemes; an app may claim at most \(maximumURLSchemes)")
    }
    var schemes: [String] = []
    for (index, item) in items.enumerated() {
      let field = "urlSchemes[\(index)]"
      guard case .string(let scheme) = item else { throw Problem(description: "\(path): \(field) must be a string") }
      guard isScheme(scheme) else {
        throw Problem(
          description:
            "\(path): \(field) must be a lowercase URL scheme (a letter, then letters, digits, '+', '-' or '.'), got \"\(scheme)\"")
      }
      guard !reservedSchemes.contains(scheme) else {
        throw Problem(description: "\(path): \(field) \"\(scheme)\" belongs to the desktop or the web; choose a scheme of the app's own")
      }
      guard !schemes.contains(scheme) else { throw Problem(description: "\(path): \(field) \"\(scheme)\" is listed twice") }
      schemes.append(scheme)
    }
    return schemes
  }

  /// Whether `text` is a lowercase RFC 3986 scheme.
  package static func isScheme(_ text: String) -> Bool {
    guard let first = text.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else { return false }
    return text.utf8.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  /// The scheme of `url`, lowercased (`DBUURL://x` → `dbuurl`), or nil when it has none.
  package static func scheme(of url: String) -> String? {
    guard let colon = url.firstIndex(of: ":") else { return nil }
    let scheme = url[..<colon].lowercased()
    return isScheme(scheme) ? scheme : nil
  }
}
