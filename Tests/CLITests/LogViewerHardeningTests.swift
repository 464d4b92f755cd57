import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge logs` facing peers that lie or misbehave: what it prints cannot drive the terminal,
/// records from another user are marked, and no peer can make it hold unbounded memory.
@Suite(.onTestThreads) struct LogViewerHardeningTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-logh")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["NBRIDGE_LOG_TO"] = nil
  }

  func write(_ script: String, app: String = "dev.test.hard") throws -> String {
    try dir.write("\(app)/nbridge.json", #"{"id": "\#(app)"}"#)
    return try dir.write("\(app)/app.js", script)
  }

  /// Waits until `condition` holds (checked every 20 ms, at most `timeout` seconds).
  func eventually(timeout: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }

  @Test func textOutputShowsControlCharactersAsEscapes() throws {
    let viewer = try LogViewerProcess([])
    // A real app: a title-setting OSC, a bell, a carriage return, a line that looks like a record,
    // a CSI as its one-character C1 form, and a right-to-left override.
    let path = try write(
      #"nbridge.log.info('a\x1b]0;pwned\x07b\rc\n12:00:00.000 INFO  dev.bank app.js:1  paid\x9b31m\u202eevil');"#)
    let r = try NBridgeTest.command(["run", "--log-to", ":\(viewer.port)", path], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    // A peer that forges its app id and file with escapes of its own.
    let forger = try RawClient(to: "127.0.0.1", port: viewer.port)
    forger.send(
      #"{"hello":1,"app":"dev.x\u001b[2J","pid":1,"run":"r"}"# + "\n"
        + #"{"seq":1,"t":0,"level":"info","msg":"m\u0000\u007f","file":"/a/\u001b[1Ab.js","line":3}"# + "\n")
    #expect(forger.readLine() == #"{"ack":1}"#)
    #expect(viewer.waitForRecords(2))
    viewer.stop()
    let out = viewer.child.stdout
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 2, "one line a record: \(out.debugDescription)")
    #expect(
      lines.first?.hasSuffix(
        #"dev.test.hard app.js:1  a\e]0;pwned\u{7}b\rc\n12:00:00.000 INFO  dev.bank app.js:1  paid\u{9b}31m\u{202e}evil"#
      )
        == true, "\(out.debugDescription)")
    #expect(lines.last?.hasSuffix(#"dev.x\e[2J \e[1Ab.js:3  m\u{0}\u{7f}"#) == true, "\(out.debugDescription)")
    let raw = out.unicodeScalars.filter {
      $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}"
    }
    #expect(raw.isEmpty, "raw control characters reached the terminal: \(raw.map { $0.value })")
  }

  @Test func aRecordCannotClaimTheFieldsTheViewerAdds() throws {
    let viewer = try LogViewerProcess()
    let client = try RawClient(to: "127.0.0.1", port: viewer.port)
    client.send(
      #"{"hello":1,"app":"dev.raw","pid":7,"run":"r"}"# + "\n"
        + #"{"seq":1,"msg":"forged uid","peerUid":0}"# + "\n"
        + #"{"seq":2,"msg":"forged app","app":"dev.bank"}"# + "\n"
        + #"{"seq":3,"msg":"escaped name","p\u0065erUid":0}"# + "\n"
        + #"{"seq":4,"msg":"plain"}"# + "\n")
    #expect(client.readLine() == #"{"ack":4}"#)
    #expect(viewer.waitForRecords(1))
    // The viewer counts what it ignored when the peer goes.
    shutdown(client.fd, Int32(SHUT_WR))
    #expect(eventually { viewer.child.stderr.contains("malformed") }, "\(viewer.child.stderr)")
    viewer.stop()
    let records = viewer.records
    #expect(records.map { $0["msg"] as? String } == ["plain"])
    #expect(records.first?["peerUid"] as? Int == Int(geteuid()))
    #expect(records.first?["app"] as? String == "dev.raw" && records.first?["pid"] as? Int == 7)
    #expect(viewer.child.stderr.contains("ignored 3 malformed lines from 127.0.0.1:"), "\(viewer.child.stderr)")
  }

  /// Needs root to be another user (uid 65534), as the control socket's peer test does.
  @Test func recordsFromAnotherUserAreMarked() throws {
    #expect(geteuid() == 0, "this test switches to uid 65534 and needs root")
    let text = try LogViewerProcess([])
    let json = try LogViewerProcess()
    let client = """
      import socket, sys
      for port in sys.argv[1:]:
          s = socket.create_connection(('127.0.0.1', int(port)))
          s.sendall(b'{"hello":1,"app":"dev.test.hard","pid":1,"run":"other"}\\n{"seq":1,"t":0,"level":"info","msg":"from nobody"}\\n')
          print(s.makefile().readline(), end='')
      """
    let r = try ChildProcess.run(
      "setpriv",
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", client, String(text.port),
        String(json.port),
      ],
      timeout: 30)
    #expect(r.status == 0 && r.stdout == "{\"ack\":1}\n{\"ack\":1}\n", "\(r.stdout)\(r.stderr)")
    // The app's own user, for comparison: no mark.
    let path = try write("nbridge.log.info('from me');")
    for port in [text.port, json.port] {
      let run = try NBridgeTest.command(["run", "--log-to", ":\(port)", path], environment: env)
      #expect(run.status == 0, "\(run.stderr)")
    }
    #expect(text.waitForRecords(2) && json.waitForRecords(2))
    text.stop()
    json.stop()
    let lines = text.child.stdout.split(separator: "\n").map {
      String($0.split(separator: " ", maxSplits: 1).last ?? "")
    }
    #expect(lines.contains("INFO  dev.test.hard [uid 65534] console  from nobody"), "\(lines)")
    #expect(lines.contains("INFO  dev.test.hard app.js:1  from me"), "\(lines)")
    let uids = Dictionary(
      uniqueKeysWithValues: json.records.map { ($0["msg"] as? String ?? "", $0["peerUid"] as? Int) })
    #expect(uids == ["from nobody": 65534, "from me": Int(geteuid())])
  }

  /// The viewer's peak memory (`VmHWM`), in MiB.
  func peakMiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
  }

  /// Bytes on their way to the viewer at `port` that it has not read: the receive queues of its
  /// side and the send queues of its peers' side (`/proc/net/tcp`, IPv4).
  func unread(port: UInt16) -> Int {
    let text = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
    let hexPort = String(format: ":%04X", port)
    var total = 0
    for row in text.split(separator: "\n").dropFirst() {
      let columns = row.split(separator: " ")
      guard columns.count > 4 else { continue }
      let queues = columns[4].split(separator: ":").compactMap { Int($0, radix: 16) }
      guard queues.count == 2 else { continue }
      if columns[1].hasSuffix(hexPort) { total += queues[1] }
      if columns[2].hasSuffix(hexPort) { total += queues[0] }
    }
    return total
  }

  /// Connections the viewer (`pid`) holds open: its sockets, less the listener.
  func openSockets(_ pid: Int32) -> Int {
    let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    let sockets = fds.filter {
      ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "").hasPrefix("socket:")
    }
    return sockets.count - 1
  }

  @Test func aLineOverTheLimitClosesItsConnectionAndMemoryStaysSmall() throws {
    let viewer = try LogViewerProcess()
    // 40 peers hold 4 MiB each without a newline: 160 MiB if it were all kept.
    let junk = Array(repeating: UInt8(ascii: "x"), count: 4 << 20)
    let peers = try (0..<40).map { _ in try RawClient(to: "127.0.0.1", port: viewer.port) }
    for peer in peers { peer.send(junk) }
    #expect(
      eventually {
        viewer.child.stderr.components(separatedBy: "longer than 1 MiB that is not a record").count - 1 == 40
      }, "\(viewer.child.stderr)")
    #expect(peakMiB(viewer.child.pid) < 64, "peak \(peakMiB(viewer.child.pid)) MiB")
    // A record longer than the limit is skipped with a notice and acknowledged (so the app does
    // not send it again), and the next gets through.
    let path = try write("nbridge.log.info('x'.repeat(2 * 1024 * 1024)); nbridge.log.info('after');")
    let r = try NBridgeTest.command(["run", "--log-to", ":\(viewer.port)", path], environment: env)
    #expect(r.status == 0 && !r.stderr.contains("not delivered"), "\(r.stderr)")
    #expect(viewer.waitForRecords(1))
    #expect(viewer.records.map { $0["msg"] as? String } == ["after"])
    #expect(
      viewer.child.stderr.contains("skipped record 1 of dev.test.hard: longer than 1 MiB (pid "),
      "\(viewer.child.stderr)")
    withExtendedLifetime(peers) {}
  }

  @Test func connectionsAndTheirUnfinishedLinesAreBounded() throws {
    let viewer = try LogViewerProcess()
    // 150 peers say hello, then each holds 1,000 KiB of a record that never ends: 146 MiB if kept.
    let partial = Array(#"{"seq":1,"msg":""#.utf8) + Array(repeating: UInt8(ascii: "y"), count: 1000 << 10)
    var peers: [RawClient] = []
    for k in 0..<150 {
      let peer = try RawClient(to: "127.0.0.1", port: viewer.port)
      peer.send(#"{"hello":1,"app":"dev.flood","pid":\#(k),"run":"r\#(k)"}"# + "\n")
      peer.send(partial)
      peers.append(peer)
    }
    #expect(eventually { unread(port: viewer.port) == 0 }, "the viewer did not read everything")
    // At most 64 once the viewer has caught up: for a moment it holds 65, between accepting a new peer
    // and closing the quietest (a fresh clone's make test counted 65 there once).
    #expect(eventually { openSockets(viewer.child.pid) <= 64 }, "\(openSockets(viewer.child.pid)) connections open")
    #expect(peakMiB(viewer.child.pid) < 64, "peak \(peakMiB(viewer.child.pid)) MiB")
    #expect(viewer.child.stderr.contains("while all peers together held more than 16 MiB"), "\(viewer.child.stderr)")
    #expect(viewer.child.stderr.contains("the quietest of 64 connections"), "\(viewer.child.stderr)")
    // An app that comes now is heard.
    let path = try write("nbridge.log.info('still heard');")
    let r = try NBridgeTest.command(["run", "--log-to", ":\(viewer.port)", path], environment: env)
    #expect(r.status == 0 && !r.stderr.contains("not delivered"), "\(r.stderr)")
    #expect(viewer.waitForRecords(1))
    #expect(viewer.records.map { $0["msg"] as? String } == ["still heard"])
    withExtendedLifetime(peers) {}
  }
}
