#if canImport(Glibc)
  import Glibc
#endif

/// Who owns the other end of a TCP connection on this machine, read from the kernel's socket
/// tables (`/proc/net/tcp` and `/proc/net/tcp6`), since `SO_PEERCRED` only answers for Unix
/// sockets.
///
/// Both ends of a loopback connection are sockets of this host, so the table has a row for the
/// peer's own socket: its local address is the peer's, its remote one ours, and its `uid`
/// column the user that created it. What that proves is the user, not the program: any process
/// of that user could have made the connection. A row whose inode is 0 (the peer has closed its
/// socket already) proves nothing and gives nil, as does a peer on another host.
package enum LoopbackPeer {
  /// The uid that owns the socket at `peer` connected to `local` (this side's own address, as
  /// `getsockname` gives it), or nil when no live row on this host says so.
  package static func uid(of peer: SocketAddress, connectedTo local: SocketAddress) -> UInt32? {
    let want = (local: key(peer), remote: key(local))
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
      guard let text = POSIX.readText(table) else { continue }
      for row in text.split(separator: "\n").dropFirst() {
        let columns = row.split(separator: " ", omittingEmptySubsequences: true)
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
        guard columns.count >= 10, let here = parse(columns[1]), let there = parse(columns[2]),
          here == want.local, there == want.remote, let uid = UInt32(columns[7]), let inode = UInt64(columns[9]),
          inode != 0
        else { continue }
        return uid
      }
    }
    return nil
  }

  /// An address and port as 16 bytes (IPv4 as `::ffff:a.b.c.d`) and the port, so a row of either
  /// table compares with an address of either family.
  private struct Key: Equatable {
    var ip: [UInt8]
    var port: UInt16
  }

  private static func key(_ address: SocketAddress) -> Key {
    Key(ip: mapped(address.ipBytes), port: address.port)
  }

  private static func mapped(_ ip: [UInt8]) -> [UInt8] {
    ip.count == 4 ? Array(repeating: 0, count: 10) + [0xFF, 0xFF] + ip : ip
  }

  /// `0100007F:9E04`: the address as the kernel prints it (each 32-bit word of the address in
  /// network order, printed as a native integer in hex), a colon, the port in hex.
  private static func parse(_ field: Substring) -> Key? {
    guard let colon = field.firstIndex(of: ":"), let port = UInt16(field[field.index(after: colon)...], radix: 16)
    else { return nil }
    let hex = field[..<colon]
    guard hex.count == 8 || hex.count == 32 else { return nil }
    var ip: [UInt8] = []
    var start = hex.startIndex
    while start < hex.endIndex {
      let end = hex.index(start, offsetBy: 8)
      guard let word = UInt32(hex[start..<end], radix: 16) else { return nil }
      withUnsafeBytes(of: word) { ip += $0 }
      start = end
    }
    return Key(ip: mapped(ip), port: port)
  }
}
