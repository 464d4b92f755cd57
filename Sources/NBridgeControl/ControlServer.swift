import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// Serves an app's control socket on the runtime's loop: descriptor watches, no thread.
///
/// Each accepted connection is checked with `SO_PEERCRED` (only this user's processes are
/// answered), then read line by line; every line gets exactly one reply line, whatever it holds,
/// delivered however many a client sends before it reads. A connection that neither sends a
/// request nor takes a reply for `idleTimeout` is closed, and when every slot is taken the one
/// idle the longest makes room: idle clients cannot lock the CLI's own commands out.
@BridgeActor
final class ControlServer {
  /// The longest request line answered (64 KiB); longer ones get `too_large`.
  static let maximumLineLength = 64 * 1024
  /// Connections served at once; past it the one idle the longest is closed, or, when every one
  /// waits on an answer, the newcomer is told `busy`.
  static let maximumConnections = 32
  /// How long a connection may stay without a request or a reply read while none is pending.
  static let idleTimeout = Duration.seconds(5)

  private let listener: ControlListener
  private unowned let loop: EventLoop
  private let answer: @BridgeActor (ArraySlice<UInt8>, UnixSocket.Peer, @escaping @BridgeActor (String) -> Void) -> Void
  private var acceptWatch: Int?
  private var connections: [Int32: ControlConnection] = [:]

  /// Serves `listener` on `loop`; `answer` gets each request line and its sender, and replies once.
  init(
    listener: ControlListener, loop: EventLoop,
    answer: @escaping @BridgeActor (ArraySlice<UInt8>, UnixSocket.Peer, @escaping @BridgeActor (String) -> Void) -> Void
  ) {
    self.listener = listener
    self.loop = loop
    self.answer = answer
    acceptWatch = loop.watch(listener.descriptor) { [unowned self] in self.acceptWaiting() }
  }

  /// The socket's path.
  var path: String { listener.path }

  private func acceptWaiting() {
    while let fd = UnixSocket.accept(listener.descriptor) {
      guard let peer = UnixSocket.peer(of: fd), peer.uid == geteuid() else {
        _ = UnixSocket.send(fd, Array((Self.refusal(code: "permission_denied", "only processes of uid \(geteuid()) may use this socket") + "\n").utf8))
        Glibc.close(fd)
        continue
      }
      if connections.count >= Self.maximumConnections,
        let idlest = connections.values.filter({ $0.pending == 0 }).min(by: { $0.lastProgress < $1.lastProgress })
      {
        drop(idlest)
      }
      guard connections.count < Self.maximumConnections else {
        _ = UnixSocket.send(fd, Array((Self.refusal(code: "busy", "\(Self.maximumConnections) connections wait on answers already") + "\n").utf8))
        Glibc.close(fd)
        continue
      }
      let connection = ControlConnection(descriptor: fd, peer: peer, now: loop.clock.now())
      connections[fd] = connection
      resumeReading(connection)
      armIdleTimer(connection, at: connection.lastProgress + Self.idleTimeout)
    }
  }

  private func resumeReading(_ connection: ControlConnection) {
    guard connection.readWatch == nil, !connection.peerDone else { return }
    connection.readWatch = loop.watch(connection.descriptor) { [unowned self, unowned connection] in
      self.readable(connection)
    }
  }

  private func readable(_ connection: ControlConnection) {
    let open = connection.read { input in
      connection.lastProgress = loop.clock.now()
      switch input {
      case .line(let line):
        connection.pending += 1
        answer(line, connection.peer) { [weak self, weak connection] reply in
          guard let self, let connection, self.connections[connection.descriptor] === connection else { return }
          connection.pending -= 1
          self.send(reply, on: connection)
        }
      case .oversized:
        send(Self.refusal(code: "too_large", "a request line may hold at most \(Self.maximumLineLength) bytes"), on: connection)
      }
    }
    guard connections[connection.descriptor] === connection else { return }
    if !open {
      // No more requests; the replies still owed go out before it closes.
      connection.peerDone = true
      stopReading(connection)
      closeIfDone(connection)
    } else if connection.hasOutput {
      // The peer is not reading its replies: read no more requests until it does.
      stopReading(connection)
    }
  }

  private func stopReading(_ connection: ControlConnection) {
    if let watch = connection.readWatch { loop.cancelWatch(watch) }
    connection.readWatch = nil
  }

  private func send(_ reply: String, on connection: ControlConnection) {
    guard connection.send(reply) else { return drop(connection) }
    afterWriting(connection)
  }

  /// Watches for room while replies wait; once they are all out, reads again (or closes).
  private func afterWriting(_ connection: ControlConnection) {
    if connection.hasOutput {
      if connection.writeWatch == nil {
        connection.writeWatch = loop.watch(connection.descriptor, events: Int16(POLLOUT)) {
          [unowned self, unowned connection] in
          guard connection.flush() else { return self.drop(connection) }
          connection.lastProgress = self.loop.clock.now()
          self.afterWriting(connection)
        }
      }
      return
    }
    if let watch = connection.writeWatch { loop.cancelWatch(watch) }
    connection.writeWatch = nil
    resumeReading(connection)
    closeIfDone(connection)
  }

  private func closeIfDone(_ connection: ControlConnection) {
    if connection.peerDone && connection.pending == 0 && !connection.hasOutput { drop(connection) }
  }

  /// Closes the connection at `deadline` if it has had no request and no reply read by then
  /// and waits on no answer; otherwise looks again when it could be.
  private func armIdleTimer(_ connection: ControlConnection, at deadline: LoopInstant) {
    let now = loop.clock.now()
    let delay = deadline < now ? Duration.zero : .nanoseconds(Int64(deadline.nanoseconds - now.nanoseconds))
    connection.idleTimer = loop.addTimer(delay: delay, interval: nil, keepsAlive: false) {
      [weak self, weak connection] in
      guard let self, let connection, self.connections[connection.descriptor] === connection else { return }
      let due = connection.lastProgress + Self.idleTimeout
      if connection.pending == 0 && self.loop.clock.now() >= due {
        self.drop(connection)
      } else {
        self.armIdleTimer(connection, at: max(due, self.loop.clock.now() + Self.idleTimeout / 5))
      }
    }
  }

  private func drop(_ connection: ControlConnection) {
    guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
    for watch in [connection.readWatch, connection.writeWatch].compactMap({ $0 }) { loop.cancelWatch(watch) }
    if let timer = connection.idleTimer { loop.cancelTimer(timer) }
    connection.isClosed = true
    Glibc.close(connection.descriptor)
  }

  /// Stops serving: closes every connection and removes the socket (again is harmless).
  func close() {
    guard let watch = acceptWatch else { return }
    acceptWatch = nil
    loop.cancelWatch(watch)
    for connection in Array(connections.values) { drop(connection) }
    listener.close()
  }

  /// A reply line for a request that could not be read: `{"id":null,"ok":false,...}`.
  static func refusal(id: JSONValue = .null, code: String, _ message: String) -> String {
    let reply: JSONValue = ["id": id, "ok": false, "code": .string(code), "message": .string(message)]
    return reply.jsonText
  }
}
