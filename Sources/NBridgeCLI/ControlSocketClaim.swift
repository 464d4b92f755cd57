import Glibc
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

extension RuntimeConfiguration {
  /// What a run does after claiming the control socket.
  enum ClaimOutcome {
    /// Run the app (owning the socket, or without one).
    case run
    /// Its URL or its arguments went to the running instance: exit 0.
    case handedOff
    /// Its URL or its arguments could not be delivered: exit 1 (the message is printed).
    case failed
  }

  /// The variable `nbridge open` sets to a descriptor on which the launched run writes one line
  /// once its URL is accepted (it owns the socket, or handed the URL to the instance that does).
  static let launchNotifyVariable = "NBRIDGE_LAUNCH_NOTIFY_FD"

  /// Claims the app's control socket for a run of `nbridge run` or `nbridge app`: the first run
  /// of an app serves it. A later one while the first is alive hands it its URL (`--url`, the
  /// `url` op) or else its `launchArguments` (the `launch` op: single instance) over the socket
  /// instead of running; with neither (`--new-instance`, a script without a manifest) it runs
  /// without the socket (the first keeps answering, `nbridge ps` lists it). A socket that cannot
  /// be made is reported on stderr and the run goes on without one. Claiming under the socket's
  /// lock makes two runs started at once end as one instance that gets both.
  mutating func claimControlSocket(url: String? = nil, background: Bool = false, launchArguments: [String]? = nil)
    -> ClaimOutcome
  {
    defer { notifyLauncher() }
    var silences = 0
    for _ in 0..<200 {
      switch ControlListener.claim(appID: manifest.id) {
      case .owner(let listener):
        extensions.append(ControlExtension.make(listener: listener))
        launchURL = url
        return .run
      case .unavailable(let why):
        writeStderr("nbridge: no control socket for \(manifest.id): \(why)\n")
        launchURL = url
        return .run
      case .running(let path):
        guard let url else {
          guard let launchArguments else { return .run }
          switch handLaunch(launchArguments, background: background, toSocket: path, silences: &silences) {
          case .some(let outcome): return outcome
          case .none: break  // The instance ended meanwhile: claim again.
          }
          usleep(20_000)
          continue
        }
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
    writeStderr("nbridge: cannot hand \(url ?? "this launch") to \(manifest.id): its instance keeps exiting\n")
    return .failed
  }

  /// Hands this launch's arguments to the instance serving `path` (the `launch` op, which makes
  /// it active unless `background`, and emits `appLaunch`); nil when that instance is exiting.
  /// An instance that takes the request and says nothing is given one more try (it may have been
  /// ending), counted in `silences`; the second silence is a failure, not ten seconds more each.
  private func handLaunch(_ arguments: [String], background: Bool, toSocket path: String, silences: inout Int)
    -> ClaimOutcome?
  {
    let request: JSONValue = [
      "op": "launch", "args": .array(arguments.map(JSONValue.string)), "cwd": .string(absolutePath(".")),
      "background": .bool(background),
    ]
    do {
      let reply = try ControlClient.send(request, toSocket: path, timeout: 10, waking: true)
      if reply.ok {
        writeStderr("nbridge: \(manifest.id) is running: this launch went to it (--new-instance starts another)\n")
        return .handedOff
      }
      let code = reply.fields["code"]?.stringValue
      let message = reply.fields["message"]?.stringValue ?? "no reason given"
      if code == ErrorCode.unavailable.rawValue && message == "the app is exiting" { return nil }
      // An instance without the app plugin's `launch` op (a runtime of its own): two instances, as before.
      if code == "unknown_op" { return .run }
      writeStderr("nbridge: \(manifest.id) refused this launch: \(message)\n")
      return .failed
    } catch .failed(let why) {
      writeStderr("nbridge: cannot hand this launch to \(manifest.id) (--new-instance starts another): \(why)\n")
      return .failed
    } catch .noReply(let why) {
      silences += 1
      guard silences >= 2 else { return nil }
      writeStderr("nbridge: \(manifest.id) did not take this launch (--new-instance starts another): \(why)\n")
      return .failed
    } catch {
      return nil
    }
  }

  /// Tells `nbridge open` (when it launched this run) that the URL was accepted.
  private mutating func notifyLauncher() {
    guard let text = environment.removeValue(forKey: Self.launchNotifyVariable), let fd = Int32(text), fd > 2 else { return }
    unsetenv(Self.launchNotifyVariable)
    _ = UnixSocket.send(fd, Array("accepted\n".utf8))
    close(fd)
  }
}
