import NBridgeSystem
import CX11
import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// A helper program (`xclip`, `wl-copy`, `wl-paste`) started through `Spawn` in its own
/// session with no descriptor of ours beyond its stdio, so it can outlive the script (and a
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

  private static func spawn(
    _ arguments: [String], environment: [String: String], capture: Bool, input: Bool = true
  ) throws(SystemError) -> Running {
    let child = try Spawn.launch(
      arguments, environment: environment, standard: Spawn.Standard(stdin: input, capture: capture), newSession: true)
    return Running(pid: child.pid, stdin: child.stdin, stdout: child.stdout, stderr: child.stderr)
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
        POSIX.sendAll(stdin, input)
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
    func reap() -> Int32 { Spawn.wait(pid) }
  }

  /// Bytes a reader thread fills in before `DispatchGroup.wait` returns.
  private final class ErrorBox: @unchecked Sendable {
    var bytes: [UInt8] = []
  }
}
