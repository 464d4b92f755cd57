import Glibc
import NBridgeLog
import NBridgePlugin
import NBridgeSystem

/// `nbridge logs`: listens for apps run with `--log-to`, many at once over one `poll(2)`, prints
/// their records (one line each, or JSON Lines), and acknowledges each record once it is written.
/// A record whose `seq` a run already sent is skipped, so a resent tail never shows twice. On
/// SIGINT/SIGTERM it acknowledges what it printed before closing: the next viewer goes on from there.
///
/// What a record claims (its app id, pid, file) is the sender's word. What the viewer proves is
/// the user that owns a loopback peer's socket (`LoopbackPeer`): records from another user, or
/// from a peer whose user it cannot tell, are marked (`[uid 1001]`, `[uid ?]`; `peerUid` in
/// `--json`). Text output escapes control characters (`TerminalText`). Memory is bounded: a line
/// holds at most `lineLimit` bytes, at most `connectionLimit` peers are heard at once, and the
/// unfinished lines of all of them hold at most `bufferLimit` bytes.
final class LogViewer {
  /// What to show and whom to hear.
  struct Options {
    var host = "127.0.0.1"
    var port: UInt16 = 2532
    var minimum = LogLevel.debug
    var app: String?
    var grep: String?
    var json = false
    var color = false
  }

  private final class Connection {
    let fd: Int32
    let peer: SocketAddress
    /// The user owning the peer's socket, when the viewer could tell (loopback peers only).
    let peerUid: UInt32?
    var input: [UInt8] = []
    /// What `--json` puts before a record's own fields: `{"app":"dev.x","pid":12,"peerUid":1000,`.
    var jsonPrefix: [UInt8]
    /// The app id the hello claimed, and as text mode prints it (escaped, with the peer's mark).
    var app = "?"
    var appText: String
    var pid: Int64 = 0
    var saidHello = false
    var run: String
    /// The run's progress, shared with any other connection of the same run.
    var progress = RunProgress()
    var acknowledged: UInt64 = 0
    var malformed = 0
    /// Skipping the rest of a line that grew past the limit.
    var discarding = false
    /// How much of `input` holds no newline.
    var searched = 0
    /// Read from in the last turn of the loop; when it was last acknowledged (monotonic ms).
    var readLast = false
    var acknowledgedAt: Int64 = 0
    /// When it last sent a complete line (or connected), for choosing whom to close when full.
    var activeAt: Int64

    init(fd: Int32, peer: SocketAddress, peerUid: UInt32?, now: Int64) {
      self.fd = fd
      self.peer = peer
      self.peerUid = peerUid
      activeAt = now
      run = "connection \(fd) \(peer)"
      jsonPrefix = Self.prefix(app: Array(#""?""#.utf8), pid: 0, peerUid: peerUid)
      appText = "?" + Self.mark(peerUid)
    }

    /// ` [uid 1001]` after the app id in text mode when the peer is not the viewer's own user,
    /// ` [uid ?]` when the viewer cannot tell; nothing for its own user.
    static func mark(_ peerUid: UInt32?) -> String {
      guard let peerUid else { return " [uid ?]" }
      return peerUid == geteuid() ? "" : " [uid \(peerUid)]"
    }

    /// `{"app":<app, a JSON string as sent>,"pid":12,"peerUid":1000,`.
    static func prefix(app: [UInt8], pid: Int64, peerUid: UInt32?) -> [UInt8] {
      var prefix = Array(#"{"app":"#.utf8)
      prefix += app
      prefix += #","pid":"#.utf8
      prefix += String(pid).utf8
      prefix += #","peerUid":"#.utf8
      prefix += (peerUid.map { String($0) } ?? "null").utf8
      prefix.append(UInt8(ascii: ","))
      return prefix
    }
  }

  private let options: Options
  /// Whether peers that are not loopback are taken: only when listening on an address that is
  /// not loopback itself (`--host 0.0.0.0`, a LAN address), which is what naming one asks for.
  private let anyPeer: Bool
  private let listener: Int32
  private let signals: WakeSignal
  private var connections: [Int32: Connection] = [:]
  /// The highest `seq` seen, by run id.
  private var runs: [String: RunProgress] = [:]

  /// The highest `seq` of a run the viewer has seen (printed, or filtered out).
  private final class RunProgress {
    var seen: UInt64 = 0
  }
  private var out: [UInt8] = []
  private var stopping = false
  /// The longest line read (1 MiB; records are a few hundred bytes). A longer record is skipped
  /// and acknowledged with a notice; a longer line that is not a record closes its connection.
  static let lineLimit = 1 << 20
  /// Peers heard at once; one more closes the one quiet the longest (those without a hello first).
  static let connectionLimit = 64
  /// Bytes of unfinished lines held across all connections; past it the one holding most is closed.
  static let bufferLimit = 16 << 20
  /// Read from one connection in one turn, so one app cannot starve the others.
  private static let readLimit = 1 << 20

  /// Listens (the error says why it could not, such as the port in use).
  init(_ options: Options) throws(SystemError) {
    self.options = options
    listener = try TCP.listen(host: options.host, port: options.port)
    anyPeer = !TCP.localAddress(listener).isLoopback
    signals = try Signals.install([SIGINT, SIGTERM])
    Signals.ignore(SIGPIPE)
  }

  /// Where it listens (the port the system picked for `--port 0`).
  var address: SocketAddress { TCP.localAddress(listener) }

  /// Runs until SIGINT/SIGTERM (exit 0) or stdout closes (exit 1).
  func run() -> Int32 {
    out.reserveCapacity(1 << 20)
    while !stopping {
      var fds = [
        pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
      ]
      let open = Array(connections.values)
      for connection in open { fds.append(pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)) }
      // Owing an acknowledgement, it wakes within 10 ms to send it.
      let owing = open.contains { $0.progress.seen > $0.acknowledged }
      let ready = poll(&fds, nfds_t(fds.count), owing ? 10 : 100)
      if ready < 0 && errno != EINTR { return 1 }
      if fds[1].revents != 0 { stopping = true }
      if fds[0].revents != 0 { acceptAll() }
      for (index, connection) in open.enumerated() where fds[index + 2].revents != 0 {
        guard connections[connection.fd] === connection else { continue }
        readAll(connection)
        connection.readLast = true
        limitBuffered()
        // What a turn prints stays small however many peers write at once.
        if out.count >= 1 << 20, !flush() { return 1 }
      }
      guard flush() else { return 1 }
      let now = Self.monotonicMilliseconds()
      for connection in connections.values {
        // While a client streams, one ack each 10 ms (not one a read: each wakes its sender);
        // the moment it pauses, at once.
        if !connection.readLast || now - connection.acknowledgedAt >= 10 { acknowledge(connection, at: now) }
        connection.readLast = false
      }
    }
    shutDown()
    return 0
  }

  // MARK: Connections

  private func acceptAll() {
    while let (fd, peer) = TCP.accept(listener) {
      guard anyPeer || peer.isLoopback else {
        warn("refused \(peer): not a loopback address (listen with --host to take other peers)")
        close(fd)
        continue
      }
      let now = Self.monotonicMilliseconds()
      if connections.count >= Self.connectionLimit,
        let quiet = connections.values.min(by: {
          ($0.saidHello ? 1 : 0, $0.activeAt) < ($1.saidHello ? 1 : 0, $1.activeAt)
        })
      {
        warn("closed \(quiet.peer), the quietest of \(Self.connectionLimit) connections, to hear \(peer)")
        drop(quiet)
      }
      let uid = peer.isLoopback ? LoopbackPeer.uid(of: peer, connectedTo: TCP.localAddress(fd)) : nil
      connections[fd] = Connection(fd: fd, peer: peer, peerUid: uid, now: now)
    }
  }

  /// Closes the connection holding the most unfinished bytes while all together hold more than
  /// `bufferLimit`.
  private func limitBuffered() {
    while connections.values.reduce(0, { $0 + $1.input.count }) > Self.bufferLimit,
      let largest = connections.values.max(by: { $0.input.count < $1.input.count })
    {
      warn(
        "closed \(largest.peer): it held \(largest.input.count >> 10) KiB of an unfinished line while all peers together held more than \(Self.bufferLimit >> 20) MiB"
      )
      drop(largest)
    }
  }

  /// Reads what the connection has (at most `readLimit` a turn).
  private func readAll(_ connection: Connection) {
    var total = 0
    while total < Self.readLimit, connections[connection.fd] === connection {
      guard let n = TCP.read(connection.fd, into: &connection.input, max: 256 * 1024) else { break }
      if n <= 0 {
        processLines(connection)
        drop(connection)
        return
      }
      total += n
      processLines(connection)
    }
  }

  /// The `seq` at the start of a line as the runtime writes it (`{"seq":12,`), if there is one.
  private static func leadingSeq(_ bytes: [UInt8]) -> UInt64? {
    let head = LogWire.seqHead
    guard bytes.count > head.count, bytes[..<head.count].elementsEqual(head) else { return nil }
    var value: UInt64 = 0
    var digits = 0
    for byte in bytes[head.count...].prefix(20) {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
      value = value &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
      digits += 1
    }
    return digits > 0 && digits < 20 && value > 0 ? value : nil
  }

  private func drop(_ connection: Connection) {
    guard connections[connection.fd] === connection else { return }
    if connection.malformed > 0 {
      warn(
        "ignored \(connection.malformed) malformed line\(connection.malformed == 1 ? "" : "s") from \(connection.peer)")
    }
    close(connection.fd)
    connections[connection.fd] = nil
    // The turn's list of connections still holds it: let go of its bytes now.
    connection.input = []
  }

  private func processLines(_ connection: Connection) {
    var start = 0
    connection.input.withUnsafeBufferPointer { buffer in
      // The unfinished line's bytes were searched before: each byte is searched once.
      var from = connection.searched
      while from < buffer.count, let found = memchr(buffer.baseAddress! + from, 0x0A, buffer.count - from) {
        let newline = buffer.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        if connection.discarding {
          connection.discarding = false
        } else {
          handle(UnsafeBufferPointer(rebasing: buffer[start..<newline]), from: connection)
        }
        start = newline + 1
        from = start
      }
    }
    if start > 0 { connection.activeAt = Self.monotonicMilliseconds() }
    connection.input.removeFirst(start)
    connection.searched = connection.input.count
    if connection.discarding || (connection.input.isEmpty && connection.input.capacity > 256 * 1024) {
      // Let go of what a long line made room for: an idle connection keeps little.
      connection.input = []
      connection.searched = 0
    } else if connection.input.count > LogViewer.lineLimit {
      guard connection.saidHello, let seq = Self.leadingSeq(connection.input) else {
        warn("closed \(connection.peer): it sent a line longer than \(Self.lineLimit >> 20) MiB that is not a record")
        drop(connection)
        return
      }
      // Skipped and acknowledged: closing would only have the app send it again, forever.
      if seq > connection.progress.seen {
        connection.progress.seen = seq
        warn(
          "skipped record \(seq) of \(connection.appText): longer than \(Self.lineLimit >> 20) MiB (pid \(connection.pid))"
        )
      }
      connection.discarding = true
      connection.input.removeAll()
      connection.searched = 0
    }
  }

  private func handle(_ bytes: UnsafeBufferPointer<UInt8>, from connection: Connection) {
    if bytes.isEmpty { return }
    guard let line = LogLine(bytes) else {
      connection.malformed += 1
      return
    }
    if line.hello {
      connection.saidHello = true
      connection.app = line.app.map { LogLine.decode(UnsafeBufferPointer(rebasing: bytes[$0])) } ?? "?"
      connection.appText = TerminalText.escaped(connection.app) + Connection.mark(connection.peerUid)
      connection.pid = line.pid ?? 0
      let app = line.app.map { Array(UnsafeBufferPointer(rebasing: bytes[($0.lowerBound - 1)...$0.upperBound])) }
      connection.jsonPrefix = Connection.prefix(
        app: app ?? Array(#""?""#.utf8), pid: connection.pid, peerUid: connection.peerUid)
      if let run = line.run {
        connection.run = String(decoding: UnsafeBufferPointer(rebasing: bytes[run]), as: UTF8.self)
      }
      if let progress = runs[connection.run] {
        connection.progress = progress
      } else {
        connection.progress = RunProgress()
        runs[connection.run] = connection.progress
      }
      connection.acknowledged = 0
      return
    }
    guard let seq = line.seq, seq > connection.progress.seen else { return }
    connection.progress.seen = seq
    if let app = options.app, app != connection.app { return }
    let isMarker = line.dropped != nil
    if !isMarker {
      if (line.level ?? .info) < options.minimum { return }
      if let grep = options.grep, !grep.isEmpty {
        guard let message = line.message, LogLine.decode(UnsafeBufferPointer(rebasing: bytes[message])).contains(grep)
        else { return }
      }
    }
    if options.json {
      // The record's own fields follow the app's, after the `{` they replace.
      out += connection.jsonPrefix
      if bytes.count > 2 {
        out += UnsafeBufferPointer(rebasing: bytes[1...])
      } else {
        out[out.count - 1] = UInt8(ascii: "}")
      }
      out.append(UInt8(ascii: "\n"))
    } else {
      appendText(line, bytes, connection)
    }
  }

  /// `09:30:00.123 INFO  dev.x index.js:12  message`.
  private func appendText(_ line: LogLine, _ bytes: UnsafeBufferPointer<UInt8>, _ connection: Connection) {
    let level = line.dropped != nil ? LogLevel.warn : line.level ?? .info
    let color = options.color ? (level == .error ? "\u{1B}[31m" : level == .warn ? "\u{1B}[33m" : "") : ""
    var text = color + LogViewer.clock(line.time ?? 0) + " "
    let tag = level.name.uppercased()
    text += tag + String(repeating: " ", count: 6 - tag.count) + connection.appText + " "
    if let dropped = line.dropped {
      text +=
        "dropped: \(dropped) record\(dropped == 1 ? "" : "s") (seq \(line.from ?? 0)-\(line.to ?? 0)): the app's queue was full"
    } else {
      if let file = line.file, !file.isEmpty {
        let path = LogLine.decode(UnsafeBufferPointer(rebasing: bytes[file]))
        text += TerminalText.escaped(String(path.split(separator: "/").last ?? "")) + ":" + String(line.line ?? 0)
      } else {
        text += "console"
      }
      text += "  "
      if let message = line.message {
        text += TerminalText.escaped(LogLine.decode(UnsafeBufferPointer(rebasing: bytes[message])))
      }
    }
    if !color.isEmpty { text += "\u{1B}[0m" }
    out += text.utf8
    out.append(UInt8(ascii: "\n"))
  }

  /// Local `HH:MM:SS.mmm` of a time in milliseconds since the epoch.
  static func clock(_ milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
    let ms = Int(milliseconds % 1000)
    return two(parts.tm_hour) + ":" + two(parts.tm_min) + ":" + two(parts.tm_sec) + "."
      + (ms < 10 ? "00" : ms < 100 ? "0" : "") + String(ms)
  }

  // MARK: Output and acknowledgements

  /// Writes what is buffered to stdout; false when stdout is gone.
  private func flush() -> Bool {
    defer { out.removeAll(keepingCapacity: true) }
    do {
      try POSIX.writeAll(1, out, what: "stdout")
      return true
    } catch {
      return false
    }
  }

  /// Tells a client the last `seq` of its run this viewer has (printed, or filtered out).
  private func acknowledge(_ connection: Connection, at now: Int64 = 0) {
    let seen = connection.progress.seen
    guard seen > connection.acknowledged else { return }
    let line = LogWire.acknowledgement(seen)
    if TCP.write(connection.fd, line, from: 0) == line.count {
      connection.acknowledged = seen
      connection.acknowledgedAt = now
    }
  }

  /// Acknowledges what was printed, closes the sending side, and lets clients read that before
  /// they close theirs (at most 0.5 s): what is unread is theirs to send to the next viewer.
  private func shutDown() {
    _ = flush()
    for connection in connections.values {
      acknowledge(connection)
      Glibc.shutdown(connection.fd, Int32(SHUT_WR))
    }
    let deadline = Self.monotonicMilliseconds() + 500
    while !connections.isEmpty {
      let remaining = deadline - Self.monotonicMilliseconds()
      if remaining <= 0 { break }
      let open = Array(connections.values)
      var fds = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
      if poll(&fds, nfds_t(fds.count), Int32(remaining)) <= 0 { break }
      for (index, connection) in open.enumerated() where fds[index].revents != 0 {
        var scratch: [UInt8] = []
        if let n = TCP.read(connection.fd, into: &scratch), n <= 0 {
          close(connection.fd)
          connections[connection.fd] = nil
        }
      }
    }
    for connection in connections.values { close(connection.fd) }
    close(listener)
  }

  private func warn(_ text: String) { writeStderr("nbridge logs: \(text)\n") }

  private static func monotonicMilliseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }
}
