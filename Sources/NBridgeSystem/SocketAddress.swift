#if canImport(Glibc)
  import Glibc
#endif

/// An IPv4 or IPv6 socket address (`sockaddr_storage`), as `getaddrinfo(3)` resolves it and
/// `accept(2)` reports a peer.
package struct SocketAddress: Sendable, CustomStringConvertible {
  package var storage = sockaddr_storage()
  package var length: socklen_t = 0

  /// An empty address for `accept`/`getsockname` to fill.
  package init() {}

  /// Every address `getaddrinfo(3)` finds for `host` and `port` (TCP), in its order.
  package static func resolve(host: String, port: UInt16) throws(SystemError) -> [SocketAddress] {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0 else {
      // EAI_* codes are not errno values; EHOSTUNREACH reads closest.
      throw SystemError(operation: "resolve \(host) (\(String(cString: gai_strerror(status))))", code: EHOSTUNREACH)
    }
    defer { freeaddrinfo(list) }
    var found: [SocketAddress] = []
    var cursor = list
    while let info = cursor {
      var address = SocketAddress()
      withUnsafeMutableBytes(of: &address.storage) { raw in
        raw.copyMemory(from: UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen)))
      }
      address.length = info.pointee.ai_addrlen
      found.append(address)
      cursor = info.pointee.ai_next
    }
    return found
  }

  /// `AF_INET` or `AF_INET6`.
  package var family: Int32 { Int32(storage.ss_family) }

  /// The port, in host order.
  package var port: UInt16 {
    withUnsafeBytes(of: storage) { raw in
      family == AF_INET6
        ? UInt16(bigEndian: raw.load(fromByteOffset: MemoryLayout<sockaddr_in6>.offset(of: \.sin6_port)!, as: UInt16.self))
        : UInt16(bigEndian: raw.load(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_port)!, as: UInt16.self))
    }
  }

  /// The IP address bytes: 4 for IPv4, 16 for IPv6.
  package var ipBytes: [UInt8] {
    withUnsafeBytes(of: storage) { raw in
      if family == AF_INET6 {
        let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
        return Array(raw[offset..<offset + 16])
      }
      let offset = MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!
      return Array(raw[offset..<offset + 4])
    }
  }

  /// Whether the address is the host's loopback: `127.0.0.0/8`, `::1`, or `::ffff:127.x.y.z`.
  /// Any other address, this machine's own LAN address included, is not.
  package var isLoopback: Bool {
    let ip = ipBytes
    if ip.count == 4 { return ip[0] == 127 }
    if ip[0..<15].allSatisfy({ $0 == 0 }) && ip[15] == 1 { return true }
    let mapped = ip[0..<10].allSatisfy { $0 == 0 } && ip[10] == 0xFF && ip[11] == 0xFF
    return mapped && ip[12] == 127
  }

  /// The numeric host: `127.0.0.1`, `::1`.
  package var host: String {
    var bytes = ipBytes
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
    _ = inet_ntop(bytes.count == 16 ? AF_INET6 : AF_INET, &bytes, &text, socklen_t(text.count))
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `127.0.0.1:2532`, `[::1]:2532`.
  package var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

  /// Calls `body` with the address as a `sockaddr` pointer and its length.
  package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
    withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
  }
}
