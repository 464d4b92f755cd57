import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

extension RuntimeConfiguration {
  /// What a run does after claiming the control socket.
  enum ClaimOutcome {
    /// Run the app (owning the socket, or without one).
    case run
    /// Its URL went to the running instance: exit 0.
    case handedOff
    /// Its URL could not be delivered: exit 1 (the message is printed).
    case failed
  }

  /// The variable `nbridge open` sets to a descriptor on which the launched run writes one line
  /// once its URL is accepted (it owns the socket, or handed the URL to the instance that does).
  static let launchNotifyVariable = "NBRIDGE_LAUNCH_NOTIFY_FD"

  /// Claims the app's control socket for a run of `nbridge run` or `nbridge app`: the first run
  /// of an app serves it; a later one while the first is alive runs without it (the first keeps
  /// answering, `nbridge ps` lists it) — unless it carries a URL (`--url`), which it hands to
  /// the first over the socket instead of running. A socket that cannot be made is reported on
  /// stderr and the run goes on without one. Claiming under the socket's lock makes two runs
  /// started at once with URLs end as one instance that gets both.
  mutating func claimControlSocket(url: String? = nil, background: Bool = false) -> ClaimOutcome {
    defer { notifyLauncher() }
    for _ in 0..<200 {
      switch ControlListener.claim(appID: manifest.id) {
      case .owner(let listener):
        controlListener = listener
        launchURL = url
        return .run
      case .unavailable(let why):
        writeStderr("nbridge: no control socket for \(manifest.id): \(why)\n")
        launchURL = url
        return .run
      case .running(let path):
        guard let url else { return .run }
        do {
          let reply = try ControlClient.send(["op": "url", "url": .string(url), "background": .bool(background)], toSocket: path, timeout: 10, waking: true)
          if reply.ok { return .handedOff }
          if reply.fields["code"]?.stringValue != ErrorCode.unavailable.rawValue || reply.fields["message"]?.stringValue != "the app is exiting" {
            writeStderr("nbridge: \(manifest.id) refused \(url): \(reply.fields["message"]?.stringValue ?? "no reason given")\n")
            return .failed
          }
        } catch .failed(let why) {
          writeStderr("nbridge: cannot hand \(url) to \(manifest.id): \(why)\n")
          return .failed
        } catch {
          // The instance ended meanwhile: claim again.
        }
        usleep(20_000)
      }
    }
    writeStderr("nbridge: cannot hand \(url ?? "") to \(manifest.id): its instance keeps exiting\n")
    return .failed
  }

  /// Tells `nbridge open` (when it launched this run) that the URL was accepted.
  private mutating func notifyLauncher() {
    guard let text = environment.removeValue(forKey: Self.launchNotifyVariable), let fd = Int32(text), fd > 2 else { return }
    unsetenv(Self.launchNotifyVariable)
    _ = UnixSocket.send(fd, Array("accepted\n".utf8))
    close(fd)
  }
}
