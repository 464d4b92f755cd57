import NBridgeSystem
import CX11
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// A helper program (`xclip`, `wl-copy`, `wl-paste`) started with `posix_spawn` — never
/// `fork`, which is unsafe in a threaded process — in its own session with default signal
/// handling and no descriptor of ours beyond its stdio, so it can outlive the script (and a
/// Ctrl-C in its terminal) while it owns the clipboard.
enum HelperProcess {
  /// How a helper ended and what it printed.
  struct Outcome: Sendable {
    /// The exit status (128 + n when killed by signal n).
    var status: Int32
    /// What it wrote to stdout (when captured).
    var output: [UInt8]
    /// What it wrote to stderr (when captured).
    var errors: String
  }

  /// `POSIX_SPAWN_SETSID` (glibc hides it without `_GNU_SOURCE`): the helper gets its own session.
  private static let setSessionFlag: Int16 = 0x80

  /// Runs `arguments` (the program looked up on `environment`'s `PATH`) with `input` on stdin, waits for it to
  /// exit on a background thread, and returns its status with stdout and stderr when `capture`
  /// is set (else both go to `/dev/null`, so a daemonising helper holds no pipe of ours).
  static func run(
    _ arguments: [String], input: [UInt8] = [], environment: [String: String], capture: Bool = false
  ) async throws(SystemError) -> Outcome {
    let child = try spawn(arguments, environment: environment, capture: capture)
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(returning: child.finish(input: input))
      }
    }
  }

  /// Starts a long-running helper whose stdout this process reads (`wl-paste --watch`).
  static func start(_ arguments: [String], environment: [String: String]) throws(SystemError) -> Running {
    try spawn(arguments, environment: environment, capture: true, input: false)
  }

  /// A started helper: its PID and our ends of its pipes.
  struct Running: Sendable {
    /// The helper's PID.
    let pid: pid_t
    /// Our end of its stdin, or -1.
    let stdin: Int32
    /// Our end of its stdout, or -1.
    let stdout: Int32
    /// Our end of its stderr, or -1.
    let stderr: Int32

    /// Writes `input`, closes stdin, reads stdout and stderr to their ends and reaps the helper.
    /// Blocks: call it off the loop thread.
    func finish(input: [UInt8]) -> Outcome {
      if stdin >= 0 {
        var offset = 0
        while offset < input.count {
          let n = input.withUnsafeBytes {
            send(stdin, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
          }
          if n < 0 && errno == EINTR { continue }
          if n <= 0 { break }
          offset += n
        }
        Glibc.close(stdin)
      }
      let errorReader = stderr >= 0 ? DispatchQueue.global() : nil
      let errorBytes = ErrorBox()
      let group = DispatchGroup()
      if let errorReader {
        errorReader.async(group: group) {
          errorBytes.bytes = (try? POSIX.readAll(stderr, limit: 1 << 20, what: "stderr")) ?? []
        }
      }
      let output = stdout >= 0 ? ((try? POSIX.readAll(stdout, limit: maxTextBytes + 1, what: "stdout")) ?? []) : []
      group.wait()
      if stdout >= 0 { Glibc.close(stdout) }
      if stderr >= 0 { Glibc.close(stderr) }
      return Outcome(status: reap(), output: output, errors: String(decoding: errorBytes.bytes, as: UTF8.self))
    }

    /// Waits for the helper to exit; its status.
    func reap() -> Int32 {
      var status: Int32 = 0
      while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
      let signal = status & 0x7F
      return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
  }

  /// Bytes a reader thread fills in before `DispatchGroup.wait` returns.
  private final class ErrorBox: @unchecked Sendable {
    var bytes: [UInt8] = []
  }

  /// `name` itself when it holds a `/`, else the first executable `name` in `path`'s folders
  /// (the run's `PATH`, which may differ from this process's).
  private static func locate(_ name: String, path: String) -> String? {
    if name.contains("/") { return name }
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  private static func spawn(
    _ arguments: [String], environment: [String: String], capture: Bool, input: Bool = true
  ) throws(SystemError) -> Running {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    var ours: [Int32] = []
    var theirs: [Int32] = []
    func channel(_ target: Int32) throws(SystemError) -> Int32 {
      // A socket pair, created close-on-exec in one call, so a helper spawned by another
      // thread at the same moment cannot inherit it (and `send` can avoid SIGPIPE).
      var pair: [Int32] = [-1, -1]
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      _ = try POSIX.retrying("create a pipe for \(arguments[0])") { socketpair(AF_UNIX, type, 0, &pair) }
      ours.append(pair[0])
      theirs.append(pair[1])
      posix_spawn_file_actions_adddup2(&actions, pair[1], target)
      return pair[0]
    }
    let closeAll = { for fd in ours + theirs { Glibc.close(fd) } }
    let stdinEnd: Int32
    let stdoutEnd: Int32
    let stderrEnd: Int32
    do throws(SystemError) {
      if input {
        stdinEnd = try channel(0)
      } else {
        stdinEnd = -1
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      }
      if capture {
        stdoutEnd = try channel(1)
        stderrEnd = try channel(2)
      } else {
        stdoutEnd = -1
        stderrEnd = -1
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
      }
    } catch {
      closeAll()
      throw error
    }

    // The helper may outlive us by hours: it must hold no descriptor of ours (a parent
    // waiting for our pipes to close would wait for it too).
    posix_spawn_file_actions_addclosefrom_np(&actions, 3)

    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF) | setSessionFlag)

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    guard let program = locate(arguments[0], path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
      for fd in ours + theirs { Glibc.close(fd) }
      throw SystemError(operation: "start \(arguments[0]) (not found on PATH)", code: ENOENT)
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    for fd in theirs { Glibc.close(fd) }
    guard result == 0 else {
      for fd in ours { Glibc.close(fd) }
      throw SystemError(operation: "start \(arguments[0])", code: result)
    }
    return Running(pid: pid, stdin: stdinEnd, stdout: stdoutEnd, stderr: stderrEnd)
  }
}
