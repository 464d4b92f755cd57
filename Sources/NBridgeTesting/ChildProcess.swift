import Foundation
import NBridgeSystem
import Synchronization

/// A process a test starts (the `nbridge` binary, `Xvfb`, `xclip`, `dunst`, ...) and
/// stops by the PID it started; its output goes to files so it can never block on a pipe.
///
/// It is started with `posix_spawn` (NBridgeSystem's `Spawn`), not Foundation's `Process`, whose
/// `run()` on Linux faults now and then listing `/proc/self/fd`; no descriptor of the test's
/// beyond stdio reaches it.
public final class ChildProcess: Sendable {
  /// The PID started.
  public let pid: Int32
  private let outPath: String
  private let errPath: String
  /// Its raw `waitpid` status once reaped, nil while it runs.
  private let exit = Mutex<Int32?>(nil)

  /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`.
  /// `environment` is added to (and overrides) the test's own; a nil value removes a variable.
  public init(
    _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:], stdin: String? = nil,
    directory: String? = nil
  ) throws {
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("nbridge-proc-\(UUID().uuidString)").path
    outPath = base + ".out"
    errPath = base + ".err"
    var standard = Spawn.Standard(output: .files(stdout: outPath, stderr: errPath))
    standard.stdinPipe = stdin != nil
    let child = try Spawn.launch(
      [ChildProcess.resolve(executable)] + arguments, environment: env, standard: standard, directory: directory)
    pid = child.pid
    if let stdin, child.stdin >= 0 {
      POSIX.sendAll(child.stdin, Array(stdin.utf8))
      close(child.stdin)
    }
  }

  deinit {
    if isRunning {
      kill(pid, SIGKILL)
      _ = Spawn.wait(pid)
    }
    unlink(outPath)
    unlink(errPath)
  }

  /// Whether it is still running (reaps it once it has ended).
  public var isRunning: Bool { status == nil }

  /// Its exit status (128 + n when killed by signal n) once it has ended; nil while it runs.
  public var status: Int32? { waitStatus.map(Spawn.exitStatus) }

  /// Whether it ended killed by a signal rather than exiting by itself; nil while it runs.
  public var wasKilledBySignal: Bool? { waitStatus.map { $0 & 0x7F != 0 } }

  /// Its raw `waitpid` status once it has ended (reaping it then), nil while it runs.
  private var waitStatus: Int32? {
    exit.withLock { known in
      if let known { return known }
      var raw: Int32 = 0
      let reaped = waitpid(pid, &raw, WNOHANG)
      guard reaped == pid else { return reaped < 0 && errno == ECHILD ? 127 << 8 : nil }
      known = raw
      return known
    }
  }

  /// What it has written to stdout so far.
  public var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
  /// What it has written to stderr so far.
  public var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }

  /// Sends `signal` to the PID started.
  public func signal(_ signal: Int32) { if isRunning { kill(pid, signal) } }

  /// Waits until `signal`, sent to it, is no longer pending (`/proc/PID/status`' `ShdPnd` and
  /// `SigPnd`): its handler has run or is running. A second signal sent after this is a second
  /// delivery, not merged into the first.
  @discardableResult
  public func waitUntilDelivered(_ signal: Int32, timeout: Double = 10) -> Bool {
    let bit = UInt64(1) << UInt64(signal - 1)
    return waitUntil(timeout: timeout) {
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
      let pending = status.split(separator: "\n").filter { $0.hasPrefix("ShdPnd:") || $0.hasPrefix("SigPnd:") }
        .compactMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
      return pending.allSatisfy { $0 & bit == 0 }
    }
  }

  /// Waits up to `timeout` seconds for exit; returns the exit status (128+n for a signal), or nil if still running.
  @discardableResult
  public func wait(timeout: Double = 30) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let status { return status }
      if Date() > deadline { return nil }
      usleep(5_000)
    }
  }

  /// Waits until stdout contains `text`, up to `timeout` seconds; returns whether it did.
  ///
  /// It looks every 10 ms, and reads the output again only when its file has grown (one `stat`
  /// a look otherwise): a test that waits long on a chatty process costs little CPU beside the
  /// other tests that run meanwhile.
  public func waitForOutput(_ text: String, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var readAt = -1
    while Date() < deadline {
      let size = Self.size(of: outPath)
      if size != readAt {
        readAt = size
        if stdout.contains(text) { return true }
      }
      usleep(10_000)
    }
    return stdout.contains(text)
  }

  /// The size of the file at `path` in bytes, -1 when it cannot be read.
  private static func size(of path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : -1
  }

  /// Kills it (SIGTERM, then SIGKILL after a grace period) and waits.
  public func stop(grace: Double = 2) {
    guard isRunning else { return }
    kill(pid, SIGTERM)
    if wait(timeout: grace) == nil {
      kill(pid, SIGKILL)
      wait(timeout: 5)
    }
  }

  /// Runs a command to completion: exit status and output.
  public static func run(
    _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:], stdin: String? = nil,
    directory: String? = nil, timeout: Double = 60
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    let child = try ChildProcess(executable, arguments, environment: environment, stdin: stdin, directory: directory)
    guard let status = child.wait(timeout: timeout) else {
      child.stop()
      throw ChildProcessError.timedOut(([executable] + arguments).joined(separator: " "))
    }
    return (status, child.stdout, child.stderr)
  }

  /// Finds `name` on `PATH` (or returns it when it is a path).
  public static func resolve(_ name: String) -> String {
    if name.contains("/") { return name }
    return Spawn.locate(name, path: ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") ?? name
  }
}

/// Why a child process could not be used.
public enum ChildProcessError: Error, CustomStringConvertible {
  /// It did not exit in time.
  case timedOut(String)
  /// It did not start or become ready.
  case notReady(String)
  /// Which command timed out or did not become ready, as one line.
  public var description: String {
    switch self {
    case .timedOut(let c): "timed out: \(c)"
    case .notReady(let c): "not ready: \(c)"
    }
  }
}
