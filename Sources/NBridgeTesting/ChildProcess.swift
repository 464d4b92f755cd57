import Foundation

/// A process a test starts (the `nbridge` binary, `Xvfb`, `xclip`, `dunst`, ...) and
/// stops by the PID it started; its output goes to files so it can never block on a pipe.
public final class ChildProcess: @unchecked Sendable {
  /// The underlying process.
  public let process = Process()
  private let outURL: URL
  private let errURL: URL

  /// Starts `executable` (a path, or a name looked up on `PATH`) with `arguments`.
  /// `environment` is added to (and overrides) the test's own; a nil value removes a variable.
  public init(
    _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:], stdin: String? = nil,
    directory: String? = nil
  ) throws {
    process.executableURL = URL(fileURLWithPath: ChildProcess.resolve(executable))
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    for (key, value) in environment { env[key] = value }
    process.environment = env
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("nbridge-proc-\(UUID().uuidString)")
    outURL = base.appendingPathExtension("out")
    errURL = base.appendingPathExtension("err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    if let stdin {
      let pipe = Pipe()
      process.standardInput = pipe
      try process.run()
      pipe.fileHandleForWriting.write(Data(stdin.utf8))
      try pipe.fileHandleForWriting.close()
    } else {
      process.standardInput = FileHandle.nullDevice
      try process.run()
    }
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    try? FileManager.default.removeItem(at: outURL)
    try? FileManager.default.removeItem(at: errURL)
  }

  /// The PID started.
  public var pid: Int32 { process.processIdentifier }
  /// Whether it is still running.
  public var isRunning: Bool { process.isRunning }
  /// What it has written to stdout so far.
  public var stdout: String { (try? String(contentsOf: outURL, encoding: .utf8)) ?? "" }
  /// What it has written to stderr so far.
  public var stderr: String { (try? String(contentsOf: errURL, encoding: .utf8)) ?? "" }

  /// Sends `signal` to the PID started.
  public func signal(_ signal: Int32) { if process.isRunning { kill(pid, signal) } }

  /// Waits up to `timeout` seconds for exit; returns the exit status (128+n for a signal), or nil if still running.
  @discardableResult
  public func wait(timeout: Double = 30) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning {
      if Date() > deadline { return nil }
      usleep(5_000)
    }
    return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
  }

  /// Waits until stdout contains `text`, up to `timeout` seconds; returns whether it did.
  public func waitForOutput(_ text: String, timeout: Double = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if stdout.contains(text) { return true }
      usleep(10_000)
    }
    return stdout.contains(text)
  }

  /// Kills it (SIGTERM, then SIGKILL after a grace period) and waits.
  public func stop(grace: Double = 2) {
    guard process.isRunning else { return }
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
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return name
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
