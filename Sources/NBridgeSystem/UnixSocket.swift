#if canImport(Glibc)
  import Glibc
#endif

/// The Unix-domain stream socket calls of the control socket, in one place: a listener, its
/// accepted connections (non-blocking, for the loop), a client connection (blocking, with a
/// time limit) and the peer's credentials. Every descriptor is made close-on-exec.
package enum UnixSocket {
  /// The longest path `sockaddr_un` holds (107 bytes and the terminating NUL).
  package static let maximumPathLength = 107

  /// The credentials of the process at the other end (`SO_PEERCRED`): for an accepted
  /// connection the process that called `connect`, for a client the one that called `listen`.
  package struct Peer: Sendable, Equatable {
    /// Its process id.
    package var pid: Int32
    /// Its effective user id.
    package var uid: UInt32

    /// Credentials as given.
    package init(pid: Int32, uid: UInt32) {
      self.pid = pid
      self.uid = uid
    }
  }

  /// `socket(2)`, `bind(2)`, `chmod(2)` to `mode`, `listen(2)`: a non-blocking listener at `path`
  /// (which must not exist).
  package static func listen(at path: String, mode: mode_t = 0o600, backlog: Int32 = 64) throws(SystemError) -> Int32 {
    var address = try self.address(path)
    let fd = try POSIX.retrying("create a socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0) }
    do {
      _ = try POSIX.retrying("bind \(path)") {
        withUnsafePointer(to: &address) {
          $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
      }
      _ = try POSIX.retrying("chmod \(path)") { chmod(path, mode) }
      _ = try POSIX.retrying("listen on \(path)") { Glibc.listen(fd, backlog) }
    } catch {
      close(fd)
      throw error
    }
    return fd
  }

  /// `accept(2)` on a non-blocking listener: the new connection, made non-blocking and
  /// close-on-exec, or nil when none is waiting. (Glibc's module hides `accept4`; the loop
  /// thread, which is the only one that starts processes for the runtime, is the caller.)
  package static func accept(_ listener: Int32) -> Int32? {
    while true {
      let fd = Glibc.accept(listener, nil, nil)
      if fd >= 0 {
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
      }
      if errno == EINTR || errno == ECONNABORTED { continue }
      return nil
    }
  }

  /// `connect(2)` to the listener at `path`, blocking, with `SO_RCVTIMEO`/`SO_SNDTIMEO` set to
  /// `timeout` seconds so later reads and writes cannot hang. `ECONNREFUSED` means nothing
  /// listens there (a stale socket), `ENOENT` no socket at all.
  package static func connect(to path: String, timeout: Double) throws(SystemError) -> Int32 {
    var address = try self.address(path)
    let fd = try POSIX.retrying("create a socket") { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
    var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if status != 0 {
      let code = errno
      close(fd)
      throw SystemError(operation: "connect to \(path)", code: code)
    }
    return fd
  }

  /// `getsockopt(SO_PEERCRED)`: who is at the other end of a connected socket.
  /// (`struct ucred` is `{pid_t pid; uid_t uid; gid_t gid;}`, three 32-bit integers; Glibc's
  /// module hides it behind `_GNU_SOURCE`.)
  package static func peer(of fd: Int32) -> Peer? {
    var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
    return Peer(pid: credentials.pid, uid: credentials.uid)
  }

  /// `recv(2)` into `buffer`: the count read, 0 at end of stream, nil when nothing is waiting
  /// (`EAGAIN`) or the read timed out; a broken connection counts as its end.
  package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    while true {
      let n = recv(fd, buffer.baseAddress, buffer.count, 0)
      if n >= 0 { return n }
      if errno == EINTR { continue }
      if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
      return 0
    }
  }

  /// `send(2)` of every byte without `SIGPIPE`; false when the peer is gone, or when a
  /// non-blocking socket's buffer is full (a peer that does not read its replies).
  package static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
      if n < 0 {
        if errno == EINTR { continue }
        return false
      }
      offset += n
    }
    return true
  }

  /// One `send(2)` without `SIGPIPE` on a non-blocking socket: the count written (0 when its
  /// buffer is full), or nil when the peer is gone.
  package static func sendSome(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
    while true {
      let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
      if n >= 0 { return n }
      if errno == EINTR { continue }
      return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : nil
    }
  }

  private static func address(_ path: String) throws(SystemError) -> sockaddr_un {
    guard path.utf8.count <= maximumPathLength else { throw SystemError(operation: "use the socket \(path)", code: ENAMETOOLONG) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
    }
    return address
  }
}
