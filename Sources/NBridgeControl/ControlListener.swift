import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import Synchronization

/// The listening control socket of one app, owned by the first run of that app.
///
/// Claiming is race-free: under an exclusive `flock` on `<id>.lock` beside the socket, a run
/// tries to connect to `<id>.sock`; a listener that accepts means another instance is alive;
/// a socket nobody listens on (`ECONNREFUSED`, left by a killed run) is removed; then this run
/// binds its own. The owner removes the socket under the same lock when it ends, so a run that
/// starts meanwhile either reaches the old owner or becomes the new one.
package final class ControlListener: Sendable {
  /// The outcome of `claim`.
  package enum Claim: Sendable {
    /// This run owns the socket and serves it.
    case owner(ControlListener)
    /// Another run of the app is alive and listening at `path`.
    case running(path: String)
    /// No socket for this run, and why (the run goes on without one).
    case unavailable(String)
  }

  /// The listening descriptor (non-blocking, close-on-exec).
  package let descriptor: Int32
  /// The socket's path.
  package let path: String
  /// The app id.
  package let appID: String
  private let closed = Atomic<Bool>(false)

  private init(descriptor: Int32, path: String, appID: String) {
    self.descriptor = descriptor
    self.path = path
    self.appID = appID
  }

  /// Claims the control socket of the app `id` (see the type's summary).
  package static func claim(appID id: String) -> Claim {
    if let problem = AppID.problem(id) { return .unavailable("the app id \"\(id)\" \(problem)") }
    do {
      try ControlPaths.prepareFolder()
    } catch {
      return .unavailable(error.description)
    }
    let path = ControlPaths.socket(forApp: id)
    guard path.utf8.count <= UnixSocket.maximumPathLength else {
      return .unavailable("the socket path \(path) is longer than \(UnixSocket.maximumPathLength) bytes")
    }
    do {
      return try withClaimLock(appID: id) { () throws(SystemError) -> Claim in
        if let stale = alive(path) {
          if stale { try POSIX.unlink(path) } else { return .running(path: path) }
        }
        let fd = try UnixSocket.listen(at: path)
        return .owner(ControlListener(descriptor: fd, path: path, appID: id))
      }
    } catch {
      return .unavailable(error.description)
    }
  }

  /// Whether a listener answers at `path`: nil when there is no socket, true when the socket is
  /// stale (nothing listens), false when a run is alive.
  private static func alive(_ path: String) -> Bool? {
    do {
      Glibc.close(try UnixSocket.connect(to: path, timeout: 2))
      return false
    } catch {
      return error.code == ENOENT ? nil : true
    }
  }

  /// Stops listening: removes the socket under the claim lock, then closes the descriptor
  /// (again is harmless).
  package func close() {
    guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    _ = try? Self.withClaimLock(appID: appID) { () throws(SystemError) in
      try POSIX.unlink(path)
    }
    Glibc.close(descriptor)
  }

  private static func withClaimLock<T>(appID id: String, _ body: () throws(SystemError) -> T) throws(SystemError) -> T {
    let fd = try POSIX.open(ControlPaths.lock(forApp: id), O_RDWR | O_CREAT, mode: 0o600)
    defer { Glibc.close(fd) }
    try POSIX.lock(fd, exclusive: true, what: "the control socket lock of \(id)")
    return try body()
  }
}
