import Glibc

/// Where a request the runtime's own HTTP/1.1 client takes goes (`PlainHTTPRequest`): an `http:`
/// URL without user info whose host is an IP address or `localhost`, no proxy in the environment,
/// no `Expect` header. Everything else (`https:`, other host names, proxies, `Expect`) goes
/// through libsoup.
struct PlainHTTPTarget {
  /// The URL's host and port as the URL spells them: the `Host` header and the pool's key.
  let authority: String
  /// The request target: the URL's path and query.
  let path: String
  /// The addresses to connect to, tried in order.
  let addresses: [SocketAddress]

  /// The target of `url` (NUL-terminated) with `headers` (`name\nvalue\n...`), or nil when the
  /// request is one for libsoup.
  init?(url: UnsafePointer<CChar>, headers: UnsafePointer<CChar>) {
    let text = String(cString: url)
    guard text.hasPrefix("http://") else { return nil }
    let rest = text.utf8.dropFirst(7)
    let authorityEnd = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
    let authority = String(decoding: rest[..<(authorityEnd ?? rest.endIndex)], as: UTF8.self)
    guard !authority.isEmpty, !authority.contains("@") else { return nil }
    var path = authorityEnd.map { String(decoding: rest[$0...], as: UTF8.self) } ?? "/"
    if let hash = path.firstIndex(of: "#") { path = String(path[..<hash]) }
    if !path.hasPrefix("/") { path = "/" + path }
    guard let (host, port) = Self.split(authority), let addresses = Self.addresses(host: host, port: port),
      !Self.hasExpect(headers)
    else { return nil }
    self.authority = authority
    self.path = path
    self.addresses = addresses
  }

  /// The host and port of an authority (`[v6]:port`, `host:port`, or either without a port: 80).
  private static func split(_ authority: String) -> (Substring, UInt16)? {
    var host = Substring(authority)
    var portText: Substring = ""
    if host.hasPrefix("[") {
      guard let close = host.firstIndex(of: "]") else { return nil }
      let after = host[host.index(after: close)...]
      host = host[host.index(after: host.startIndex)..<close]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { return nil }
        portText = after.dropFirst()
      }
    } else if let colon = host.lastIndex(of: ":") {
      portText = host[host.index(after: colon)...]
      host = host[..<colon]
    }
    if portText.isEmpty { return (host, 80) }
    guard let port = UInt16(portText), port > 0 else { return nil }
    return (host, port)
  }

  /// `localhost` (IPv4 first), an IPv4 or an IPv6 literal; nil for a name that needs a resolver.
  private static func addresses(host: Substring, port: UInt16) -> [SocketAddress]? {
    if host == "localhost" {
      return [SocketAddress(ipv4: "127.0.0.1", port: port), SocketAddress(ipv6: "::1", port: port)].compactMap { $0 }
    }
    if let v4 = SocketAddress(ipv4: String(host), port: port) { return [v4] }
    if let v6 = SocketAddress(ipv6: String(host), port: port) { return [v6] }
    return nil
  }

  /// Whether the header block names `Expect` (libsoup waits for `100 Continue` before the body).
  private static func hasExpect(_ headers: UnsafePointer<CChar>) -> Bool {
    var isName = true
    var line = headers
    while line.pointee != 0 {
      var end = line
      while end.pointee != 0 && end.pointee != 10 { end += 1 }
      if isName && end - line == 6 && strncasecmp(line, "expect", 6) == 0 { return true }
      isName.toggle()
      line = end.pointee == 0 ? end : end + 1
    }
    return false
  }
}

/// A socket address for `connect(2)`.
struct SocketAddress {
  /// The address, as the family's `sockaddr_in` or `sockaddr_in6`.
  var storage = sockaddr_storage()
  /// Its length.
  var length: socklen_t
  /// `AF_INET` or `AF_INET6`.
  var family: Int32

  /// An IPv4 address in dotted form, or nil.
  init?(ipv4 text: String, port: UInt16) {
    var address = sockaddr_in()
    guard inet_pton(AF_INET, text, &address.sin_addr) == 1 else { return nil }
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    family = AF_INET
    length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
  }

  /// An IPv6 address in text form (no brackets, no zone), or nil.
  init?(ipv6 text: String, port: UInt16) {
    var address = sockaddr_in6()
    guard inet_pton(AF_INET6, text, &address.sin6_addr) == 1 else { return nil }
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_port = port.bigEndian
    family = AF_INET6
    length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
  }
}

/// Whether the environment names a proxy (`http_proxy`, `all_proxy`, `no_proxy`, either case):
/// then every request goes through libsoup, which follows them.
func environmentNamesAProxy() -> Bool {
  ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"].contains {
    guard let value = getenv($0) else { return false }
    return value.pointee != 0
  }
}
