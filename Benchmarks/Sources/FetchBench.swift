import Foundation
import Glibc

/// `fetch_local_rps`: sequential `await (await fetch(url)).text()` against one local HTTP/1.1
/// keep-alive server (in this process, a thread per connection, one fixed 13-byte reply), so the
/// figure is the client's cost: nbridge against Deno, rounds interleaved. Beside each rate, the
/// CPU a request costs: the child's user + system time (every thread, start-up included) over
/// every request it made, the warm-up's 200 too.
struct FetchBench {
  let processes: Processes

  /// Per round: requests per second and CPU µs per request, for nbridge and for Deno.
  func run(rounds: Int, requests: Int) -> (
    nbridge: [Double], deno: [Double], nbridgeCPU: [Double], denoCPU: [Double]
  ) {
    let port = LocalReplyServer.start()
    let script = processes.write(
      "fetch.js",
      """
      const url = 'http://127.0.0.1:\(port)/';
      for (let i = 0; i < 200; i++) await (await fetch(url)).text();
      const start = performance.now();
      for (let i = 0; i < \(requests); i++) await (await fetch(url)).text();
      console.log('BENCH rps ' + (\(requests) / ((performance.now() - start) / 1000)));
      """)
    var nbridge: [Double] = [], deno: [Double] = [], nbridgeCPU: [Double] = [], denoCPU: [Double] = []
    let perRequest = { (cpu: Double) in cpu * 1e6 / Double(requests + 200) }
    for round in 0..<rounds {
      let out = "\(processes.directory)/fetch-\(round)"
      let child = Spawned([processes.nbridge, "run", script], set: processes.environment, stdout: out + ".nbridge")
      let ended = child.wait()
      nbridge += processes.figures(child.output(), "rps")
      if ended.status == 0 { nbridgeCPU.append(perRequest(ended.cpu)) }
      if let binary = processes.deno {
        let peer = Spawned(
          [binary, "run", "--quiet", "--allow-net", script], set: ["DENO_DIR": "\(processes.directory)/deno"],
          stdout: out + ".deno")
        let peerEnded = peer.wait()
        deno += processes.figures(peer.output(), "rps")
        if peerEnded.status == 0 { denoCPU.append(perRequest(peerEnded.cpu)) }
      }
    }
    return (nbridge, deno, nbridgeCPU, denoCPU)
  }
}

/// A minimal HTTP/1.1 server on 127.0.0.1: every request, whatever it asks, gets `hello, bench!`.
enum LocalReplyServer {
  /// Starts listening on a free port (threads live until the process ends); returns the port.
  static func start() -> Int {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        precondition(bind(listener, raw, length) == 0 && listen(listener, 64) == 0, "bench server: cannot listen")
        _ = getsockname(listener, raw, &length)
      }
    }
    Thread.detachNewThread {
      while true {
        let connection = accept(listener, nil, nil)
        if connection < 0 { continue }
        var one: Int32 = 1
        setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        Thread.detachNewThread { serve(connection) }
      }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  private static func serve(_ connection: Int32) {
    defer { close(connection) }
    let reply = Array(
      "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\nConnection: keep-alive\r\n\r\nhello, bench!".utf8)
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16384)
    while true {
      let n = read(connection, &buffer, buffer.count)
      if n <= 0 { return }
      pending += buffer[0..<n]
      // Answer each complete request head (the bench's requests have no body).
      while let end = headEnd(pending) {
        pending.removeFirst(end)
        var offset = 0
        while offset < reply.count {
          let written = reply[offset...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
          if written <= 0 { return }
          offset += written
        }
      }
    }
  }

  private static func headEnd(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 4 else { return nil }
    for i in 0...(bytes.count - 4)
    where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
      return i + 4
    }
    return nil
  }
}
