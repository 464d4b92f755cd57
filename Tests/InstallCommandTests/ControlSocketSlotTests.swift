import Foundation
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeTesting
import Testing

/// The control socket's slots and replies under clients that hold connections open doing
/// nothing, or send far more than they read.
@Suite(.onTestThreads) struct ControlSocketSlotTests {
  let dir: TemporaryDirectory
  let env: [String: String?]
  let id = "dev.nb.slots"

  init() throws {
    dir = try TemporaryDirectory(prefix: "nb-slot")
    var env = NBridgeTest.headless
    for name in ["XDG_RUNTIME_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] {
      env[name] = dir.file(name.lowercased())
    }
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    self.env = env
    try dir.write("app/nbridge.json", #"{"id": "\#(id)", "name": "Slots"}"#)
    try dir.write("app/index.js", "setInterval(() => {}, 1000);\n")
  }

  var socket: String { dir.file("xdg_runtime_dir") + "/nbridge/\(id).sock" }

  /// Starts the app and waits until its socket answers `ping`.
  func startApp() throws -> ChildProcess {
    let child = try NBridgeTest.start(["run", dir.file("app/index.js")], environment: env)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if let reply = try? ControlClient.send(["op": "ping"], toSocket: socket, timeout: 10), reply.ok { return child }
      usleep(20_000)
    }
    child.stop()
    throw ChildProcessError.notReady("no ping reply: \(child.stderr)")
  }

  @Test func idleConnectionsDoNotLockOutTheCLI() throws {
    let app = try startApp()
    defer { app.stop() }
    // 40 connections that never send a request, some with half a line: more than the 32 slots.
    var idle: [Int32] = []
    defer { idle.forEach { close($0) } }
    for k in 0..<40 {
      let fd = try UnixSocket.connect(to: socket, timeout: 10)
      if k % 2 == 1 { #expect(UnixSocket.send(fd, Array(#"{"op":"pi"#.utf8))) }
      idle.append(fd)
    }
    // Well within the idle time limit (5 s), the CLI's requests get through.
    let started = Date()
    let ps = try NBridgeTest.command(["ps", "--json"], environment: env)
    #expect(ps.status == 0, "\(ps.stderr)")
    #expect(
      try JSONValue(parsing: ps.stdout) == [["app": .string(id), "pid": .number(Double(app.pid)), "state": "active"]])
    let simulated = try NBridgeTest.command(["simulate", "background", id], environment: env)
    #expect(simulated.status == 0, "\(simulated.stderr)")
    #expect(Date().timeIntervalSince(started) < 4, "took \(Date().timeIntervalSince(started)) s")
  }

  @Test func aConnectionThatSendsNothingIsClosedAfterFiveSeconds() throws {
    let app = try startApp()
    defer { app.stop() }
    let fd = try UnixSocket.connect(to: socket, timeout: 15)
    defer { close(fd) }
    let opened = Date()
    var byte = [UInt8](repeating: 0, count: 1)
    // Blocks until the app closes it (end of stream), or 15 s pass (nil).
    let n = byte.withUnsafeMutableBytes { UnixSocket.receive(fd, into: $0) }
    let waited = Date().timeIntervalSince(opened)
    #expect(n == 0, "still open after \(waited) s")
    #expect(waited > 4.5 && waited < 10, "closed after \(waited) s")
    #expect(try ControlClient.send(["op": "ping"], toSocket: socket, timeout: 10).ok)
  }

  @Test func everyPipelinedRequestGetsItsReply() throws {
    let app = try startApp()
    defer { app.stop() }
    let fd = try UnixSocket.connect(to: socket, timeout: 20)
    defer { close(fd) }
    let total = 10_000
    // The writer sends every request without waiting for a reply; the reader starts only once
    // 2,000 are out, so replies pile up unread meanwhile, as they do behind a slow reader.
    let sent = SentCount()
    let writer = Thread {
      for batch in 0..<(total / 1000) {
        let lines = (0..<1000).map { #"{"id":\#(batch * 1000 + $0),"op":"ping"}"# + "\n" }.joined()
        guard UnixSocket.send(fd, Array(lines.utf8)) else { break }
        sent.withLock { $0 += 1000 }
      }
      sent.withLock { $0 = -$0 - 1 }  // done (negative: the writer has stopped)
    }
    writer.start()
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline, sent.withLock({ $0 >= 0 && $0 < 2000 }) { usleep(1000) }
    var ids: [Int] = []
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while ids.count < total {
      guard let n = chunk.withUnsafeMutableBytes({ UnixSocket.receive(fd, into: $0) }), n > 0 else { break }
      pending += chunk[0..<n]
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let reply = try JSONValue(parsing: String(decoding: pending[..<newline], as: UTF8.self))
        #expect(reply["ok"] == true, "\(reply)")
        ids.append(Int(reply["id"]?.numberValue ?? -1))
        pending.removeFirst(newline + 1)
      }
    }
    #expect(sent.withLock { $0 } == -total - 1, "the writer stopped after \(-sent.withLock { $0 } - 1)")
    #expect(ids.count == total)
    #expect(ids == Array(0..<total), "replies out of order or missing")
    #expect(app.isRunning)
  }
}

/// How many requests the writer thread has sent; negative (less one) once it has stopped.
private final class SentCount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  func withLock<T>(_ body: (inout Int) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
