import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// One accepted connection to the control socket: bytes in, complete lines out, reply lines
/// queued and written as the peer reads them.
///
/// A line longer than `ControlServer.maximumLineLength` is answered with `too_large` and
/// skipped up to its newline, so one bad request neither grows the buffer nor ends the
/// connection. While replies wait for the peer to read, no more requests are read: a client
/// that pipelines without reading is slowed down, never cut off.
@BridgeActor
final class ControlConnection {
  let descriptor: Int32
  let peer: UnixSocket.Peer
  var readWatch: Int?
  var writeWatch: Int?
  var idleTimer: Int?
  /// Set when the server dropped it; reading stops.
  var isClosed = false
  /// Requests read and not answered yet.
  var pending = 0
  /// The peer sent its last request (end of stream): close once every reply is out.
  var peerDone = false
  /// When a request last came in or a reply went out, on the loop's clock.
  var lastProgress: LoopInstant
  private var buffer: [UInt8] = []
  /// Skipping the rest of an oversized line.
  private var discarding = false
  private var output: [UInt8] = []
  private var outputOffset = 0

  init(descriptor: Int32, peer: UnixSocket.Peer, now: LoopInstant) {
    self.descriptor = descriptor
    self.peer = peer
    lastProgress = now
  }

  /// Replies are waiting for the peer to read them.
  var hasOutput: Bool { outputOffset < output.count }

  /// What one read gave.
  enum Input {
    /// A complete line (without its newline).
    case line(ArraySlice<UInt8>)
    /// A line over the limit was dropped.
    case oversized
  }

  /// Reads what is waiting, until replies are left waiting; `body` gets each complete line, in
  /// order. Returns false at the end of the stream (the peer closed or the connection broke).
  func read(_ body: (Input) -> Void) -> Bool {
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while !isClosed && !hasOutput {
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
    return !isClosed
  }

  /// Queues one reply line and writes what the socket takes now; false when the peer is gone.
  func send(_ line: String) -> Bool {
    output += line.utf8
    output.append(UInt8(ascii: "\n"))
    return flush()
  }

  /// Writes queued replies until the socket is full; false when the peer is gone.
  func flush() -> Bool {
    while hasOutput {
      let written = output.withUnsafeBytes {
        UnixSocket.sendSome(descriptor, UnsafeRawBufferPointer(rebasing: $0[outputOffset...]))
      }
      guard let written else { return false }
      if written == 0 { break }
      outputOffset += written
    }
    if !hasOutput {
      output.removeAll(keepingCapacity: output.count <= 64 * 1024)
      outputOffset = 0
    }
    return true
  }
}
