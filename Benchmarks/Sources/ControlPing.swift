import Foundation
import Glibc

/// `control_ping_us`: `{"op":"ping"}` round trips on one connection to a running app's control
/// socket, and the floor: the same lines echoed by a bare Unix-socket server thread.
enum ControlPing {
  /// Microseconds per ping round trip (median of 5 batches).
  static func roundTrip(socket path: String, count: Int) -> Double? {
    guard let fd = connect(path) else { return nil }
    defer { close(fd) }
    return batches(fd: fd, line: #"{"id":1,"op":"ping"}"#, count: count)
  }

  /// Microseconds per round trip through a thread that reads a line and writes one back.
  static func echoFloor(path: String, count: Int) -> Double? {
    unlink(path)
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    guard bound == 0, listen(listener, 4) == 0 else { return nil }
    let server = Thread {
      let peer = accept(listener, nil, nil)
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = read(peer, &buffer, buffer.count)
        if n <= 0 { break }
        let reply = Array(#"{"id":1,"ok":true,"pid":1,"app":"x"}"#.utf8) + [10]
        _ = write(peer, reply, reply.count)
      }
      close(peer)
    }
    server.start()
    guard let fd = connect(path) else { return nil }
    let figure = batches(fd: fd, line: #"{"id":1,"op":"ping"}"#, count: count)
    close(fd)
    close(listener)
    unlink(path)
    return figure
  }

  private static func connect(_ path: String) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if status != 0 {
      close(fd)
      return nil
    }
    return fd
  }

  private static func batches(fd: Int32, line: String, count: Int) -> Double? {
    let request = Array(line.utf8) + [10]
    var buffer = [UInt8](repeating: 0, count: 4096)
    var figures: [Double] = []
    for _ in 0..<5 {
      let start = Clock.nanos()
      for _ in 0..<(count / 5) {
        _ = write(fd, request, request.count)
        var got = 0
        repeat {
          let n = read(fd, &buffer, buffer.count)
          if n <= 0 { return nil }
          got += n
        } while buffer[..<got].last != 10 && got < buffer.count
      }
      figures.append(Double(Clock.nanos() - start) / 1e3 / Double(count / 5))
    }
    return median(figures)
  }
}
