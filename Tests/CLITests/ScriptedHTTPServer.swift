import Foundation
import Glibc

/// An HTTP/1.1 server in the test's own process (127.0.0.1, a free port, a thread per
/// connection) whose routes act out what a client must cope with: kept-alive connections, chunked
/// and compressed bodies, a server closing a connection, a body cut off in the middle. It counts
/// the connections it accepts and notes each request (`METHOD target`) and each connection a
/// client closed in the middle of a body (`closed PATH`). Its threads end when the test process does.
final class ScriptedHTTPServer: @unchecked Sendable {
  /// The port it listens on.
  let port: Int
  private let listener: Int32
  private let lock = NSCondition()
  private var notes: [String] = []
  private var accepted = 0
  /// The connection each request came on (1 the first accepted), in order.
  private var opened: [Int] = []

  /// A gzip stream of "squeezed " 20 times (Python's `gzip.compress(..., mtime=0)`).
  static let gzipBody: [UInt8] = [
    31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 43, 46, 44, 77, 77, 173, 74, 77, 81, 40, 30, 58, 12, 0, 216, 190, 219, 0, 180, 0,
    0, 0,
  ]

  /// Starts listening.
  init() throws {
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    self.listener = listener
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listening = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        bind(listener, raw, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, raw, &length) == 0
      }
    }
    guard listening else { throw POSIXError(.EADDRINUSE) }
    port = Int(UInt16(bigEndian: address.sin_port))
    Thread.detachNewThread { [self] in
      while true {
        let connection = accept(listener, nil, nil)
        if connection < 0 { return }
        let number = lock.withLock {
          accepted += 1
          return accepted
        }
        Thread.detachNewThread { self.serve(connection, number) }
      }
    }
  }

  deinit { shutdown(listener, Int32(SHUT_RDWR)) }

  /// `http://127.0.0.1:<port>`.
  var base: String { "http://127.0.0.1:\(port)" }

  /// How many connections it has accepted.
  var connections: Int { lock.withLock { accepted } }

  /// The connection of each request, in order (1 the first accepted).
  var connectionOfEachRequest: [Int] { lock.withLock { opened } }

  /// The requests and closes seen so far, in order.
  var seen: [String] { lock.withLock { notes } }

  /// Waits (at most `timeout` seconds) until `note` has been seen; whether it was.
  func wait(for note: String, timeout: Double = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while !notes.contains(note) { if !lock.wait(until: deadline) { return notes.contains(note) } }
    return true
  }

  private func note(_ text: String) {
    lock.withLock {
      notes.append(text)
      lock.broadcast()
    }
  }

  private func serve(_ connection: Int32, _ number: Int) {
    defer { close(connection) }
    var pending: [UInt8] = []
    while true {
      guard let (head, count) = readRequest(connection, &pending) else { return }
      let line = head.split(separator: "\r\n").first.map(String.init) ?? ""
      let parts = line.split(separator: " ")
      guard parts.count >= 2 else { return }
      note("\(parts[0]) \(parts[1])")
      lock.withLock { opened.append(number) }
      _ = count
      if !answer(connection, method: String(parts[0]), target: String(parts[1])) { return }
    }
  }

  /// Reads one request (head and a Content-Length body); nil at the end of the stream.
  private func readRequest(_ connection: Int32, _ pending: inout [UInt8]) -> (String, Int)? {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      if let end = pending.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound {
        let head = String(decoding: pending[..<end], as: UTF8.self)
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
          .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        if pending.count - end >= length {
          pending.removeFirst(end + length)
          return (head, length)
        }
      }
      let n = read(connection, &buffer, buffer.count)
      if n <= 0 { return nil }
      pending += buffer[0..<n]
    }
  }

  private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return false }
      offset += n
    }
    return true
  }

  private func send(_ connection: Int32, _ text: String) -> Bool { send(connection, Array(text.utf8)) }

  /// `count` bytes (at most 4 MiB) of the pattern byte i = i % 251.
  static func pattern(_ count: Int) -> [UInt8] { Array(patternBytes[..<count]) }
  private static let patternBytes: [UInt8] = {
    var bytes = [UInt8](repeating: 0, count: 4 * 1024 * 1024)
    for i in bytes.indices { bytes[i] = UInt8(i % 251) }
    return bytes
  }()

  /// Answers one request; false when the connection is to be closed.
  private func answer(_ connection: Int32, method: String, target: String) -> Bool {
    let path = String(target.split(separator: "?").first ?? "")
    let query = target.contains("?") ? String(target.split(separator: "?")[1]) : ""
    func reply(_ body: [UInt8], _ extra: String = "") -> Bool {
      send(connection, "HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\(extra)\r\n")
        && (method == "HEAD" || send(connection, body))
    }
    switch path {
    case "/hello": return reply(Array("hello".utf8))
    case "/close-after":
      // Framed for keep-alive, then closed: the client's next request finds the connection gone.
      _ = reply(Array("bye".utf8))
      return false
    case "/drop": return false
    case "/chunked":
      let pieces = [
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Kind: pieces\r\n\r\n", "5;note=first\r\nhello\r\n",
        String(format: "%x\r\n", 100_000) + String(repeating: "c", count: 100_000) + "\r\n", "1\r\n!\r\n",
        "0\r\nX-Trailer: end\r\n\r\n",
      ]
      return pieces.allSatisfy { send(connection, $0) }
    case "/gzip": return reply(Self.gzipBody, "Content-Encoding: gzip\r\n")
    case "/early-hints":
      return send(connection, "HTTP/1.1 103 Early Hints\r\nLink: </style.css>\r\n\r\n") && reply(Array("after hints".utf8))
    case "/big":
      // ?mib=N (chunked=1: in 64 KiB chunks) of the pattern.
      let fields = Dictionary(query.split(separator: "&").map { ($0.split(separator: "=")[0], $0.split(separator: "=")[1]) }) {
        a, _ in a
      }
      let body = Self.pattern((Int(fields["mib"] ?? "1") ?? 1) * 1024 * 1024)
      guard fields["chunked"] == "1" else { return reply(body) }
      guard send(connection, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") else { return false }
      for start in stride(from: 0, to: body.count, by: 65536) {
        let piece = Array(body[start..<min(start + 65536, body.count)])
        guard send(connection, String(format: "%x\r\n", piece.count)), send(connection, piece), send(connection, "\r\n")
        else { return false }
      }
      return send(connection, "0\r\n\r\n")
    case "/half":
      // Half of a 2 MiB body, then nothing until the client closes the connection (which may
      // come while the half is still being written).
      guard send(connection, "HTTP/1.1 200 OK\r\nContent-Length: \(2 * 1024 * 1024)\r\n\r\n") else { return false }
      if send(connection, Self.pattern(1024 * 1024)) {
        var byte: UInt8 = 0
        while read(connection, &byte, 1) > 0 {}
      }
      note("closed /half")
      return false
    default:
      return send(connection, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
    }
  }
}
