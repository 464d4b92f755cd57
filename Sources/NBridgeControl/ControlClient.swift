import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The CLI's side of an app's control socket: connect, send one request, read one reply.
package enum ControlClient {
  /// Why a request got no reply.
  package enum Failure: Error, CustomStringConvertible {
    /// No run of the app is listening (no socket, or a stale one).
    case notRunning(String)
    /// The app took the request but answered nothing within the time limit, or closed.
    case noReply(String)
    /// The socket could not be used (permissions, a path too long, ...).
    case failed(String)

    /// One line.
    package var description: String {
      switch self {
      case .notRunning(let why), .noReply(let why), .failed(let why): why
      }
    }
  }

  /// A reply and who sent it.
  package struct Reply: Sendable {
    /// The reply's members (`id`, `ok`, and `code`/`message` or the op's fields).
    package var fields: JSONObject
    /// The answering process (from `SO_PEERCRED`).
    package var peer: UnixSocket.Peer
    /// Whether `ok` is true.
    package var ok: Bool { fields["ok"] == .bool(true) }
  }

  /// Sends `request` (an object with `op`; `id` is added when missing) to the app `id`'s socket.
  package static func send(_ request: JSONValue, toApp id: String, timeout: Double = 5, waking: Bool = false)
    throws(Failure) -> Reply
  {
    if let problem = AppID.problem(id) { throw .failed("\(JSONValue.string(id).jsonText) is not an app id: it \(problem)") }
    return try send(request, toSocket: ControlPaths.socket(forApp: id), timeout: timeout, waking: waking)
  }

  /// Whether the process is stopped (state `T` in `/proc/PID/stat`).
  static func isStopped(_ pid: Int32) -> Bool {
    guard let stat = POSIX.readText("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(after: close)...].dropFirst().first == "T"
  }

  /// Sends `request` to the socket at `path` and waits up to `timeout` seconds for its reply line.
  /// `waking` continues the app first when it is stopped (Ctrl-Z stops a suspended app), so it
  /// can answer; the lifecycle then moves it as SIGCONT does.
  package static func send(_ request: JSONValue, toSocket path: String, timeout: Double = 5, waking: Bool = false)
    throws(Failure) -> Reply
  {
    guard var request = request.objectValue else { throw .failed("a control request must be a JSON object") }
    let fd: Int32
    do {
      fd = try UnixSocket.connect(to: path, timeout: timeout)
    } catch where error.code == ENOENT || error.code == ECONNREFUSED {
      throw .notRunning("nothing listens on \(path)")
    } catch {
      throw .failed(error.description)
    }
    defer { close(fd) }
    if request["id"] == nil { request["id"] = 1 }
    guard UnixSocket.send(fd, Array((JSONValue.object(request).jsonText + "\n").utf8)) else {
      throw .noReply("\(path) closed the connection")
    }
    let peer = UnixSocket.peer(of: fd) ?? UnixSocket.Peer(pid: 0, uid: 0)
    if waking, peer.pid > 0, isStopped(peer.pid) { kill(peer.pid, SIGCONT) }
    var line: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      guard let n = chunk.withUnsafeMutableBytes({ UnixSocket.receive(fd, into: $0) }) else {
        throw .noReply("no reply from \(path) within \(timeout) s")
      }
      if n == 0 { throw .noReply("\(path) closed the connection without a reply") }
      if let newline = chunk[0..<n].firstIndex(of: UInt8(ascii: "\n")) {
        line.append(contentsOf: chunk[0..<newline])
        break
      }
      line.append(contentsOf: chunk[0..<n])
    }
    guard let text = String(validating: line, as: UTF8.self), case .object(let fields)? = try? JSONValue(parsing: text)
    else { throw .failed("\(path) answered something that is not a JSON object") }
    return Reply(fields: fields, peer: peer)
  }
}
