import Foundation
import NBridgeTesting

/// A real `nbridge logs` on a port of its own, stopped (SIGTERM) by the PID it started.
package final class LogViewerProcess {
  package let child: ChildProcess
  package let port: UInt16

  /// Starts `nbridge logs --port PORT` (0: the viewer picks one and names it on stderr) with `arguments`.
  package init(port: UInt16 = 0, _ arguments: [String] = ["--json"]) throws {
    child = try NBridgeTest.start(["logs", "--port", String(port)] + arguments)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let line = child.stderr.split(separator: "\n").first(where: { $0.contains("listening on") }),
        let chosen = line.split(separator: ":").last.flatMap({ UInt16($0) })
      {
        self.port = chosen
        return
      }
      if !child.isRunning { break }
      usleep(10_000)
    }
    child.stop()
    throw ChildProcessError.notReady("nbridge logs: \(child.stderr)")
  }

  deinit { child.stop() }

  /// Stops it as a user's Ctrl-C does; returns its exit status.
  @discardableResult
  package func stop() -> Int32? {
    child.signal(SIGINT)
    return child.wait(timeout: 20)
  }

  /// The `--json` records printed so far, each a dictionary.
  package var records: [[String: Any]] {
    child.stdout.split(separator: "\n").compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
    }
  }

  /// Lines printed so far.
  package var lineCount: Int { child.stdout.utf8.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } }

  /// Waits until `count` lines (records) have been printed; returns whether they were.
  package func waitForRecords(_ count: Int, timeout: Double = 30) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if lineCount >= count { return true }
      usleep(20_000)
    }
    return lineCount >= count
  }

  /// A loopback port nothing listens on (bound, read and closed at once).
  package static func freePort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = RawClient.address("127.0.0.1", port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    try withUnsafeMutablePointer(to: &address) { pointer in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        guard bind(fd, raw, length) == 0, getsockname(fd, raw, &length) == 0 else {
          throw ChildProcessError.notReady("bind: \(errno)")
        }
      }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}

/// A TCP client written by hand, to speak to the viewer as a misbehaving app (or one on another address) would.
package final class RawClient {
  package let fd: Int32

  /// Connects from `source` (an address of this machine; nil: the system's choice) to `host`:`port`.
  package init(to host: String, port: UInt16, from source: String? = nil) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if let source {
      var local = RawClient.address(source, port: 0)
      let bound = withUnsafePointer(to: &local) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      guard bound == 0 else { throw ChildProcessError.notReady("bind \(source): errno \(errno)") }
    }
    var remote = RawClient.address(host, port: port)
    let connected = withUnsafePointer(to: &remote) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    // Not closed here when it fails: a class's initializer that throws once every property is
    // set still runs `deinit`, which closes it. A second close here closed whatever descriptor
    // another test's thread had opened with that number in between (a control-socket client
    // once got "closed the connection without a reply" in a full CLITests run).
    guard connected == 0 else { throw ChildProcessError.notReady("connect \(host):\(port): errno \(errno)") }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(fd) }

  package func send(_ bytes: [UInt8]) {
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
      if n <= 0 { return }
      offset += n
    }
  }

  package func send(_ text: String) { send(Array(text.utf8)) }

  /// What the viewer answers until it closes or 5 s pass with nothing.
  package func readLine() -> String? {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while recv(fd, &byte, 1, 0) == 1 {
      if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
    return nil
  }

  package static func address(_ host: String, port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    inet_pton(AF_INET, host, &address.sin_addr)
    return address
  }

  /// An IPv4 address of this machine that is not loopback (eth0's, say), if it has one.
  package static func nonLoopbackAddress() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0 else { return nil }
    defer { freeifaddrs(list) }
    var cursor = list
    while let entry = cursor {
      cursor = entry.pointee.ifa_next
      guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET else { continue }
      let ip = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
      var text = [CChar](repeating: 0, count: 32)
      var raw = ip
      inet_ntop(AF_INET, &raw, &text, 32)
      let host = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if !host.hasPrefix("127.") { return host }
    }
    return nil
  }
}
