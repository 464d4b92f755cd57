import Glibc
import NBridgeSystem

extension DevServerURL {
  /// The host (brackets removed from an IPv6 literal) and port of a dev server's `http://` URL;
  /// nil when it names none.
  package static func address(of url: String) -> (host: String, port: UInt16)? {
    let authority = String(url.dropFirst("http://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" })
    guard let host = host(of: authority), let colon = authority.lastIndex(of: ":"),
      let port = UInt16(authority[authority.index(after: colon)...])
    else { return nil }
    return (host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port)
  }

  /// Whether something accepts a TCP connection at `url`'s host and port within `milliseconds`
  /// (the connection is closed at once, before any request). A loopback host answers or refuses
  /// at once, so the wait is only for a server too busy to accept.
  package static func answers(_ url: String, milliseconds: Int32) -> Bool {
    guard let (host, port) = address(of: url), let addresses = try? SocketAddress.resolve(host: host, port: port),
      let fd = try? TCP.connect(addresses, timeout: milliseconds, interrupt: -1)
    else { return false }
    close(fd)
    return true
  }
}
