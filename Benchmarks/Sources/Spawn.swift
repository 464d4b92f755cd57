import Foundation
import Glibc

/// A child process started with `posix_spawn`, its stdout and stderr in files, reaped with `wait4`.
struct Spawned {
  let pid: pid_t
  let started: UInt64
  let stdoutPath: String

  /// Starts `argv` (searched in PATH) with `environment` added to / removed from ours.
  init(
    _ argv: [String], set: [String: String] = [:], unset: [String] = [], stdout: String = "/dev/null",
    stderr: String = "/dev/null"
  ) {
    var environment = ProcessInfo.processInfo.environment
    for name in unset { environment[name] = nil }
    for (name, value) in set { environment[name] = value }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let cArgs = argv.map { strdup($0) } + [nil]
    let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      cArgs.forEach { free($0) }
      cEnv.forEach { free($0) }
    }
    var pid: pid_t = 0
    started = Clock.nanos()
    let status = posix_spawnp(&pid, argv[0], &actions, nil, cArgs, cEnv)
    precondition(status == 0, "cannot start \(argv[0]): \(String(cString: strerror(status)))")
    self.pid = pid
    stdoutPath = stdout
  }

  /// Waits for the child; returns its wall time (ms), peak RSS (MiB), exit status and CPU time
  /// (user + system, every thread, seconds).
  func wait() -> (ms: Double, rssMiB: Double, status: Int32, cpu: Double) {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let ms = Double(Clock.nanos() - started) / 1e6
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (ms, Double(usage.ru_maxrss) / 1024, status, seconds(usage.ru_utime) + seconds(usage.ru_stime))
  }

  /// utime + stime so far, in seconds (from /proc/PID/stat).
  func cpuSeconds() -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return .nan }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After the ")": state is field 3, utime 14, stime 15 (1-based over the whole line).
    let ticks = (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
    return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// What the child wrote to stdout (when it went to a file).
  func output() -> String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
}

/// Monotonic time.
enum Clock {
  static func nanos() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
  }
}

/// The median of `values` (nil when empty).
func median(_ values: [Double]) -> Double? {
  let sorted = values.filter { !$0.isNaN }.sorted()
  guard !sorted.isEmpty else { return nil }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Starts `argv` `runs` times after `warmups`: median wall time (ms), then median peak RSS (MiB)
/// of three more runs under GNU `time`.
///
/// The RSS runs go through `/usr/bin/time` because a child started by `posix_spawn` (a vfork-style
/// clone sharing our memory) inherits this process's RSS high-water mark at exec, so its own
/// `ru_maxrss` would read at least as big as this benchmark; `time` is small and forks.
func interleavedStartups(_ commands: [(argv: [String], set: [String: String])], warmups: Int = 2, runs: Int = 10) -> [(
  ms: Double, rssMiB: Double
)?] {
  // Round-robin, so a busy spell of a shared machine slows every command alike.
  var times = Array(repeating: [Double](), count: commands.count)
  var failed = Array(repeating: false, count: commands.count)
  for run in 0..<(warmups + runs) {
    for (index, command) in commands.enumerated() where !failed[index] {
      let result = Spawned(command.argv, set: command.set).wait()
      if result.status != 0 { failed[index] = true }
      if run >= warmups { times[index].append(result.ms) }
    }
  }
  let report = FileManager.default.temporaryDirectory.appendingPathComponent("nbridge-bench-rss-\(getpid())").path
  defer { unlink(report) }
  var rss = Array(repeating: [Double](), count: commands.count)
  for _ in 0..<3 {
    for (index, command) in commands.enumerated() where !failed[index] {
      guard Spawned(["/usr/bin/time", "-f", "%M", "-o", report] + command.argv, set: command.set).wait().status == 0,
        let text = try? String(contentsOfFile: report, encoding: .utf8),
        let kib = Double(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "")
      else {
        failed[index] = true
        continue
      }
      rss[index].append(kib / 1024)
    }
  }
  return commands.indices.map { index in
    guard !failed[index], let ms = median(times[index]), let mib = median(rss[index]) else { return nil }
    return (ms, mib)
  }
}
