#if canImport(Glibc)
  import Glibc
#endif

/// Starting other programs with `posix_spawn` (never `fork` in a process with threads): the
/// fetch scheduler's `systemctl` calls, the `nbridge daemon` it starts, and the runs it wakes.
package enum Spawn {
  /// Starts `arguments` in a session of its own (no terminal, no signals from ours), stdin from
  /// `/dev/null` and stdout/stderr appended to `output` (or `/dev/null`), holding none of our
  /// descriptors; returns its process id. `environment` nil: this process's.
  package static func detached(_ arguments: [String], environment: [String: String]? = nil, output: String? = nil)
    throws(SystemError) -> pid_t
  {
    try start(arguments, environment: environment, output: output, newSession: true)
  }

  /// Runs `arguments` to the end with its output discarded; its exit status, or nil when it
  /// could not start or was killed by a signal.
  package static func run(_ arguments: [String], environment: [String: String]? = nil) -> Int32? {
    guard let pid = try? start(arguments, environment: environment, output: nil, newSession: false) else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      if errno != EINTR { return nil }
    }
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which its headers declare only
  /// under `_GNU_SOURCE`: the woken runs and the daemon must hold none of our descriptors.
  @_silgen_name("posix_spawn_file_actions_addclosefrom_np")
  private static func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32

  /// glibc's `POSIX_SPAWN_SETSID`, which Swift does not import.
  private static let setSessionFlag: Int16 = 0x80

  private static func start(_ arguments: [String], environment: [String: String]?, output: String?, newSession: Bool)
    throws(SystemError) -> pid_t
  {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    let target = output ?? "/dev/null"
    posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    _ = addCloseFrom(&actions, 3)
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF)
    if newSession { flags |= setSessionFlag }
    posix_spawnattr_setflags(&attributes, flags)

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for p in argv { free(p) }
      for p in envp ?? [] { free(p) }
    }
    var pid: pid_t = 0
    let result =
      if var envp {
        posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, &envp)
      } else {
        posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
      }
    guard result == 0 else { throw SystemError(operation: "start \(arguments[0])", code: result) }
    return pid
  }

  /// The absolute path of the running executable (`/proc/self/exe`), or nil.
  package static var currentExecutable: String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let n = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
    guard n > 0 else { return nil }
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
