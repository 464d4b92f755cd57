import Glibc
import NBridgePlugin
import NBridgeSystem

/// Serves an app's control socket on the runtime's loop: descriptor watches, no thread.
///
/// Each accepted connection is checked with `SO_PEERCRED` (only this user's processes are
/// answered), then read line by line; every line gets exactly one reply line, whatever it holds.
@BridgeActor
final class ControlServer {
  /// The longest request line answered (64 KiB); longer ones get `too_large`.
  static let maximumLineLength = 64 * 1024
  /// Connections served at once; more are told `busy` and closed.
  static let maximumConnections = 32

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
      guard connections.count < Self.maximumConnections else {
        _ = UnixSocket.send(fd, Array((Self.refusal(code: "busy", "\(Self.maximumConnections) connections are open already") + "\n").utf8))
        Glibc.close(fd)
        continue
      }
      let connection = ControlConnection(descriptor: fd, peer: peer)
      connections[fd] = connection
      connection.watch = loop.watch(fd) { [unowned self, unowned connection] in self.readable(connection) }
    }
  }

  private func readable(_ connection: ControlConnection) {
    let open = connection.read { input in
      switch input {
      case .line(let line):
        answer(line, connection.peer) { [weak self, weak connection] reply in
          guard let self, let connection, self.connections[connection.descriptor] === connection else { return }
          if !connection.send(reply) { self.drop(connection) }
        }
      case .oversized:
        if !connection.send(Self.refusal(code: "too_large", "a request line may hold at most \(Self.maximumLineLength) bytes")) {
          drop(connection)
        }
      }
    }
    if !open { drop(connection) }
  }

  private func drop(_ connection: ControlConnection) {
    guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
    if let watch = connection.watch { loop.cancelWatch(watch) }
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
