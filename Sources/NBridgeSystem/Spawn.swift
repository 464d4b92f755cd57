#if canImport(Glibc)
  import Glibc
#endif

/// Starting other programs (`xdg-open`, `update-desktop-database`, an app launched by
/// `nbridge open`) with `posix_spawn` — never `fork`, unsafe in a threaded process — with
/// default signal handling and, beyond stdio and the one passed, only what is not
/// close-on-exec (nbridge opens everything close-on-exec).
package enum Spawn {
  /// Where a child's stdout and stderr go.
  package enum Output: Sendable {
    /// This process's own.
    case inherit
    /// `/dev/null`.
    case discard
    /// Appended to a file (created 0600).
    case append(String)
    /// stdout and stderr each to a file of its own, emptied first (created 0600).
    case files(stdout: String, stderr: String)
  }

  /// What a child's standard descriptors are: each `nil` goes to `/dev/null` (stdin) or
  /// follows `output`; each `pipe` is a close-on-exec socket pair whose other end is ours.
  package struct Standard: Sendable {
    /// A pipe for the child's stdin (else `/dev/null`).
    package var stdinPipe = false
    /// Pipes for the child's stdout and stderr (else both follow `output`).
    package var outputPipes = false
    /// With `outputPipes`, whether stderr is piped too (else it goes to `/dev/null`).
    package var errorPipe = true
    /// Where stdout and stderr go when not piped.
    package var output: Output = .inherit

    /// stdin from `/dev/null`, stdout and stderr to `output`.
    package init(output: Output = .inherit) { self.output = output }

    /// Pipes for stdin (when `stdin`) and for stdout and stderr (when `capture`, else `/dev/null`).
    package init(stdin: Bool, capture: Bool) {
      stdinPipe = stdin
      outputPipes = capture
      output = .discard
    }
  }

  /// A started child: its pid and our ends of the pipes asked for (-1 where none).
  package struct Child: Sendable {
    /// The child's pid.
    package let pid: pid_t
    /// Our end of its stdin, or -1.
    package let stdin: Int32
    /// Our end of its stdout, or -1.
    package let stdout: Int32
    /// Our end of its stderr, or -1.
    package let stderr: Int32
  }

  /// `POSIX_SPAWN_SETSID` (glibc hides it without `_GNU_SOURCE`).
  private static let setSessionFlag: Int16 = 0x80

  /// Starts `arguments` (the program looked up on `PATH` unless it holds a `/`) and returns its
  /// pid. `newSession` detaches it from our terminal and process group; `passing` is handed to
  /// it as descriptor 3.
  package static func start(
    _ arguments: [String], environment: [String: String], output: Output = .inherit, newSession: Bool = false,
    passing descriptor: Int32? = nil
  ) throws(SystemError) -> pid_t {
    try launch(arguments, environment: environment, standard: Standard(output: output), newSession: newSession,
      passing: descriptor).pid
  }

  /// Starts `arguments` with the standard descriptors `standard` describes; the child and our
  /// ends of its pipes (the caller closes them). `newSession` and `passing` as for `start`;
  /// `directory` is the child's working directory (else ours).
  package static func launch(
    _ arguments: [String], environment: [String: String], standard: Standard, newSession: Bool = false,
    passing descriptor: Int32? = nil, directory: String? = nil
  ) throws(SystemError) -> Child {
    guard let program = locate(arguments[0], path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
      throw SystemError(operation: "start \(arguments[0]) (not found on PATH)", code: ENOENT)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    var ours: [Int32] = []
    var theirs: [Int32] = []
    defer { for fd in theirs { close(fd) } }
    // A socket pair, created close-on-exec in one call, so a child spawned by another thread at
    // the same moment cannot inherit it (and `send` can avoid SIGPIPE).
    func pipe(to target: Int32) throws(SystemError) -> Int32 {
      var pair: [Int32] = [-1, -1]
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      _ = try POSIX.retrying("create a pipe for \(arguments[0])") { socketpair(AF_UNIX, type, 0, &pair) }
      ours.append(pair[0])
      theirs.append(pair[1])
      posix_spawn_file_actions_adddup2(&actions, pair[1], target)
      return pair[0]
    }
    var ends: (Int32, Int32, Int32) = (-1, -1, -1)
    var passed: Int32 = -1
    defer { if passed >= 0 { close(passed) } }
    do throws(SystemError) {
      if standard.stdinPipe {
        ends.0 = try pipe(to: 0)
      } else {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      }
      if standard.outputPipes {
        ends.1 = try pipe(to: 1)
        if standard.errorPipe {
          ends.2 = try pipe(to: 2)
        } else {
          posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
      } else {
        switch standard.output {
        case .inherit: break
        case .discard:
          posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
          posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .append(let path):
          posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
          posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .files(let stdout, let stderr):
          posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
          posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
      }
      if let directory {
        guard let changeDirectory = Self.changeDirectoryAction else {
          throw SystemError(operation: "start \(arguments[0]) in \(directory)", code: ENOSYS)
        }
        _ = changeDirectory(&actions, directory)
      }
      // The one passed is moved above 3 first (a dup2 onto itself would keep close-on-exec).
      if let descriptor {
        passed = fcntl(descriptor, F_DUPFD_CLOEXEC, 10)
        guard passed >= 0 else { throw SystemError(operation: "pass a descriptor to \(arguments[0])", code: errno) }
        posix_spawn_file_actions_adddup2(&actions, passed, 3)
      }
    } catch {
      for fd in ours { close(fd) }
      throw error
    }
    // No other descriptor may reach the child: one inherited from our parent (a test runner
    // watching for its child's end by a pipe) would tie the parent to a detached child for its life.
    for fd in openDescriptors() where fd > 2 && !(descriptor != nil && fd == 3) {
      posix_spawn_file_actions_addclose(&actions, fd)
    }

    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF) | (newSession ? setSessionFlag : 0))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for p in argv { free(p) }
      for p in envp { free(p) }
    }
    var pid: pid_t = 0
    var result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    // ETXTBSY: the program was just written and a descriptor open for writing on it is still
    // held, often by a process another thread was starting at that moment (its copy of our
    // descriptors lives until its exec). That lasts microseconds, longer on a loaded machine:
    // try again, waiting a little longer each time, for up to two seconds in all.
    var waited: useconds_t = 0
    while result == ETXTBSY && waited < 2_000_000 {
      let step = min(waited / 2 + 1000, 100_000)
      usleep(step)
      waited += step
      result = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
    }
    guard result == 0 else {
      for fd in ours { close(fd) }
      throw SystemError(operation: "start \(arguments[0])" + (directory.map { " in \($0)" } ?? ""), code: result)
    }
    return Child(pid: pid, stdin: ends.0, stdout: ends.1, stderr: ends.2)
  }

  /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29; declared for `_GNU_SOURCE` only),
  /// looked up once.
  private static let changeDirectoryAction:
    (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32)? = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np") else {
        return nil
      }
      return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32).self)
    }()

  /// Waits for `pid` to exit; its status (128 + n when killed by signal n).
  package static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return 127 }
    }
    return exitStatus(status)
  }

  /// The exit status in a `waitpid` status: the code, or 128 + n when killed by signal n.
  package static func exitStatus(_ status: Int32) -> Int32 {
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }

  /// Runs `arguments` to its end; its exit status, or nil when it could not start.
  package static func run(_ arguments: [String], environment: [String: String], output: Output = .inherit) -> Int32? {
    guard let pid = try? start(arguments, environment: environment, output: output) else { return nil }
    return wait(pid)
  }

  /// Runs `arguments` to its end in this process's environment with its output discarded (the
  /// fetch scheduler's `systemctl` calls); its exit status, or nil when it could not start.
  package static func run(_ arguments: [String]) -> Int32? {
    run(arguments, environment: currentEnvironment, output: .discard)
  }

  /// Starts `arguments` in a session of its own (no terminal, no signals from ours), its output
  /// appended to `output` (or discarded); `environment` nil is this process's. The `nbridge
  /// daemon` the fetch scheduler starts, and the runs the daemon wakes.
  package static func detached(_ arguments: [String], environment: [String: String]? = nil, output: String? = nil)
    throws(SystemError) -> pid_t
  {
    try start(
      arguments, environment: environment ?? currentEnvironment, output: output.map { .append($0) } ?? .discard,
      newSession: true)
  }

  /// This process's environment (`environ`).
  package static var currentEnvironment: [String: String] {
    var variables: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let text = String(cString: pointer)
      if let equals = text.firstIndex(of: "=") {
        variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
      }
      entry += 1
    }
    return variables
  }

  /// Whether `name` is an executable on `path`.
  package static func locate(_ name: String, path: String) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/\(name)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// The descriptors open in this process (`/proc/self/fd`), the listing's own included.
  static func openDescriptors() -> [Int32] {
    (Directory.names("/proc/self/fd") ?? []).compactMap { Int32($0) }
  }

  /// This program's own path (`/proc/self/exe`).
  package static var currentExecutable: String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
