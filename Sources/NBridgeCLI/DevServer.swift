import Glibc
import NBridgeAppSetup
import NBridgeRuntime
import NBridgeSystem

/// `nbridge app --dev`: the manifest's `dev.command` (the bundler's dev server) started in a
/// session of its own before the window opens, and stopped by its process group's id when the
/// app ends; the window waits for `dev.url` to accept connections first.
struct DevServer {
  /// The command's process (the leader of its group).
  let pid: pid_t

  /// Starts `command` with `sh -c` in `folder`.
  static func start(_ command: String, in folder: String) throws(SystemError) -> DevServer {
    let child = try Spawn.launch(
      ["/bin/sh", "-c", command], environment: ProcessEnvironment.current, standard: Spawn.Standard(), newSession: true,
      directory: folder)
    return DevServer(pid: child.pid)
  }

  /// Stops the command and what it started (its process group), then reaps it.
  func stop() {
    kill(-pid, SIGTERM)
    _ = Spawn.wait(pid)
  }

  /// Whether something accepts connections at `url`'s host and port within `seconds`.
  static func waitUntilReachable(_ url: String, seconds: Int) -> Bool {
    for _ in 0..<(seconds * 10) {
      if DevServerURL.answers(url, milliseconds: 100) { return true }
      usleep(100_000)
    }
    return false
  }
}
