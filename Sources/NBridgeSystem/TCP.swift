#if canImport(Glibc)
  import Glibc
#endif

/// The TCP calls of socket logging (the runtime's sender, the `nbridge logs` viewer): sockets
/// are non-blocking and close-on-exec; waits go through `poll(2)` so another descriptor (a
/// wake-up or a signal) can end them.
package enum TCP {
  /// Connects to the first of `addresses` that answers within `timeout` milliseconds, or until
  /// `interrupt` becomes readable; returns the connected, non-blocking descriptor.
  package static func connect(_ addresses: [SocketAddress], timeout: Int32, interrupt: Int32) throws(SystemError) -> Int32 {
    var last = SystemError(operation: "connect", code: EHOSTUNREACH)
    for address in addresses {
      let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else {
        last = SystemError(operation: "open a socket", code: errno)
        continue
      }
      var result = address.withSockaddr { Glibc.connect(fd, $0, $1) }
      if result != 0 && (errno == EINPROGRESS || errno == EINTR) {
        var fds = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0), pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, timeout)
        if ready > 0 && fds[0].revents != 0 {
          var error: Int32 = 0
          var size = socklen_t(MemoryLayout<Int32>.size)
          getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
          result = error == 0 ? 0 : -1
          errno = error
        } else {
          result = -1
          errno = ready == 0 ? ETIMEDOUT : EINTR
        }
      }
      if result == 0 {
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
      }
      last = SystemError(operation: "connect to \(address)", code: errno)
      close(fd)
    }
    throw last
  }

  /// A non-blocking socket listening on `host`:`port` (0: the system picks one).
  package static func listen(host: String, port: UInt16) throws(SystemError) -> Int32 {
    let addresses = try SocketAddress.resolve(host: host, port: port)
    var last = SystemError(operation: "listen on \(host):\(port)", code: EADDRNOTAVAIL)
    for address in addresses {
      let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else { continue }
      var on: Int32 = 1
      // A restarted viewer gets its port back at once, even with connections in TIME_WAIT.
      setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
      if address.withSockaddr({ bind(fd, $0, $1) }) == 0 && Glibc.listen(fd, 128) == 0 { return fd }
      last = SystemError(operation: "listen on \(address)", code: errno)
      close(fd)
    }
    throw last
  }

  /// Accepts one connection (non-blocking, close-on-exec), with its peer; nil when none is waiting.
  package static func accept(_ listener: Int32) -> (fd: Int32, peer: SocketAddress)? {
    var peer = SocketAddress()
    peer.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let fd = withUnsafeMutableBytes(of: &peer.storage) { raw in
      Glibc.accept(listener, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &peer.length)
    }
    guard fd >= 0 else { return nil }
    // Glibc's module has no accept4: the same two flags, set right after.
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return (fd, peer)
  }

  /// The address a socket is bound to (the port the system picked for port 0).
  package static func localAddress(_ fd: Int32) -> SocketAddress {
    var address = SocketAddress()
    address.length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutableBytes(of: &address.storage) { raw in
      getsockname(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), &address.length)
    }
    return address
  }

  /// Reads what is there into `buffer` (appending); the count read, 0 at end of stream, nil
  /// when nothing is waiting, or -1 on an error.
  package static func read(_ fd: Int32, into buffer: inout [UInt8], max: Int = 256 * 1024) -> Int? {
    var n = 0
    var failure: Int32 = 0
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max) { scratch in
      n = recv(fd, scratch.baseAddress, max, 0)
      failure = errno
      if n > 0 { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<n])) }
    }
    if n >= 0 { return n }
    return failure == EAGAIN || failure == EWOULDBLOCK || failure == EINTR ? nil : -1
  }

  /// Writes as much of `bytes[offset...]` as the socket takes now; the count written (0 when
  /// full), or -1 when the connection is gone.
  package static func write(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Int {
    guard offset < bytes.count else { return 0 }
    let n = bytes.withUnsafeBytes { raw in send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }
    if n >= 0 { return n }
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1
  }
}
