import Glibc
import NBridgePlugin
import NBridgeSystem

/// One accepted connection to the control socket: bytes in, complete lines out.
///
/// A line longer than `ControlServer.maximumLineLength` is answered with `too_large` and
/// skipped up to its newline, so one bad request neither grows the buffer nor ends the
/// connection.
@BridgeActor
final class ControlConnection {
  let descriptor: Int32
  let peer: UnixSocket.Peer
  var watch: Int?
  /// Set when the server dropped it; reading stops.
  var isClosed = false
  private var buffer: [UInt8] = []
  /// Skipping the rest of an oversized line.
  private var discarding = false

  init(descriptor: Int32, peer: UnixSocket.Peer) {
    self.descriptor = descriptor
    self.peer = peer
  }

  /// What one read gave.
  enum Input {
    /// A complete line (without its newline).
    case line(ArraySlice<UInt8>)
    /// A line over the limit was dropped.
    case oversized
  }

  /// Reads what is waiting; `body` gets each complete line, in order. Returns false at the end
  /// of the stream (the peer closed or the connection broke).
  func read(_ body: (Input) -> Void) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while !isClosed {
      guard let n = chunk.withUnsafeMutableBytes({ UnixSocket.receive(descriptor, into: $0) }) else { return true }
      if n == 0 { return false }
      var start = 0
      for i in 0..<n where chunk[i] == UInt8(ascii: "\n") {
        if isClosed { return false }
        if discarding {
          discarding = false
        } else if buffer.count + (i - start) > ControlServer.maximumLineLength {
          buffer.removeAll()
          body(.oversized)
        } else {
          buffer.append(contentsOf: chunk[start..<i])
          body(.line(buffer[...]))
          buffer.removeAll(keepingCapacity: buffer.count <= 4096)
        }
        start = i + 1
      }
      if !discarding && start < n {
        if buffer.count + (n - start) > ControlServer.maximumLineLength {
          buffer.removeAll()
          discarding = true
          body(.oversized)
        } else {
          buffer.append(contentsOf: chunk[start..<n])
        }
      }
    }
    return false
  }

  /// Sends one reply line; false when the peer is gone or does not read.
  func send(_ line: String) -> Bool {
    UnixSocket.send(descriptor, Array((line + "\n").utf8))
  }
}
