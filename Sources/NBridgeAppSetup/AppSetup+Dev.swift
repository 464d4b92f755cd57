import NBridgePlugin

extension AppSetup {
  static let devFields: Set<String> = ["url", "command"]

  /// `dev`: `{"url": "http://localhost:5173", "command": "npm run dev"}`; the URL must be `http:`
  /// on a loopback host (the dev server's page gets the bridge as the app's own page does).
  static func devSettings(_ value: JSONValue?, path: String) throws(Problem) -> DevSettings? {
    guard let fields = try section("dev", value, allowed: devFields, path: path) else { return nil }
    var settings = DevSettings()
    if let url = fields["url"] {
      guard case .string(let s) = url else {
        throw Problem(description: "\(path): field \"dev.url\" must be a string such as \"http://localhost:5173\"")
      }
      if let problem = DevServerURL.problem(s) { throw Problem(description: "\(path): field \"dev.url\" \(problem)") }
      settings.url = s
    }
    if let command = fields["command"] {
      guard case .string(let s) = command, s.contains(where: { $0 != " " && $0 != "\t" }), !s.contains("\n") else {
        throw Problem(
          description: "\(path): field \"dev.command\" must be a one-line shell command such as \"npm run dev\"")
      }
      settings.command = s
    }
    return settings
  }
}

/// A dev server's address: `http://` on a loopback host (`localhost`, `127.x.x.x`, `[::1]`) with
/// a port; never a remote host, since its pages get the bridge.
package enum DevServerURL {
  /// Why `url` cannot be a dev server's address; nil when it can.
  package static func problem(_ url: String) -> String? {
    guard url.hasPrefix("http://") else { return "must be an http:// URL on a loopback host, such as \"http://localhost:5173\" (got \"\(url)\")" }
    let rest = url.dropFirst(7)
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let host = host(of: String(authority)) else { return "must name a host and port, such as \"http://localhost:5173\" (got \"\(url)\")" }
    guard isLoopback(host) else { return "must be on a loopback host (localhost, 127.0.0.1, [::1]): \"\(host)\" is not (a dev server's page gets the bridge)" }
    return nil
  }

  /// `host` of `host:port` (brackets kept for IPv6); nil without a numeric port or with user info.
  package static func host(of authority: String) -> String? {
    guard !authority.contains("@"), let colon = authority.lastIndex(of: ":") else { return nil }
    let port = authority[authority.index(after: colon)...]
    guard !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber), let n = Int(port), n > 0, n < 65536 else {
      return nil
    }
    let host = String(authority[..<colon])
    return host.isEmpty ? nil : host
  }

  /// Whether `host` is `localhost`, an address in 127.0.0.0/8, or `[::1]`.
  package static func isLoopback(_ host: String) -> Bool {
    let lower = host.lowercased()
    if lower == "localhost" || lower == "[::1]" { return true }
    let parts = lower.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { p in !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isNumber) && Int(p)! < 256 }
  }
}
