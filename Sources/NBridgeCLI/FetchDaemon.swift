import Glibc
import NBridgePlugin
import NBridgeSystem

/// The loop of `nbridge daemon`: holds `daemon.lock` in the fetch folder (one daemon per
/// folder, its pid written in the lock file), sleeps in `poll` until the soonest schedule is
/// due or the folder changes (inotify), runs each due app's command detached, and leaves when
/// no schedule and no woken run is left. SIGTERM ends it and the runs it started.
final class FetchDaemon {
  /// One app's schedule, as the background plugin writes it.
  struct Schedule {
    var id: String
    var at: Int64
    var interval: Double
    var command: [String]
    var environment: [String: String]
    var log: String?
  }

  /// The longest sleep: the wall clock is looked at again at least this often (ms).
  static let longestWait: Int64 = 60_000

  let folder: String
  private let environment: [String: String]
  /// The `at` each app was last woken for.
  private var woken: [String: Int64] = [:]
  /// A retry time for a schedule whose run ended without moving it.
  private var retries: [String: (at: Int64, time: Int64)] = [:]
  /// The runs started and not yet ended.
  private var children: [pid_t: String] = [:]

  init(environment: [String: String]) {
    self.environment = environment
    folder = FetchWakeFolder.path(environment: environment)
  }

  /// Runs until no schedule is left (0), or another daemon holds the folder (0), or a signal.
  func run() -> Int32 {
    do { try POSIX.makeDirectories(folder) } catch {
      writeStderr("nbridge daemon: \(error)\n")
      return 1
    }
    guard let lock = try? POSIX.open("\(folder)/daemon.lock", O_RDWR | O_CREAT) else { return 1 }
    guard POSIX.tryLock(lock) else { return 0 }
    writePID(lock)

    let signals: WakeSignal
    do { signals = try Signals.install(daemonSignals) } catch {
      writeStderr("nbridge daemon: \(error)\n")
      return 1
    }
    let watchFD = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)
    inotify_add_watch(watchFD, folder, mask)

    while true {
      reap()
      var schedules = load()
      if schedules.isEmpty && children.isEmpty {
        // Leave; but an app that wrote a record while we held the lock did not start a daemon,
        // so look once more after letting go, and stay if one appeared and the lock is still free.
        POSIX.unlock(lock)
        schedules = load()
        if schedules.isEmpty || !POSIX.tryLock(lock) { return 0 }
        writePID(lock)
      }
      let wait = wake(schedules, now: ISO8601.currentMilliseconds())
      var fds = [
        pollfd(fd: watchFD, events: Int16(POLLIN), revents: 0),
        pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
      ]
      _ = poll(&fds, 2, Int32(min(wait, Self.longestWait)))
      drain(watchFD)
      if fds[1].revents != 0 {
        var stop = false
        signals.drain { number in stop = stop || Int32(number) != SIGCHLD }
        if stop {
          for pid in children.keys { kill(pid, SIGTERM) }
          return 0
        }
      }
    }
  }

  /// Starts the runs that are due; returns how long to sleep (ms) until the next one.
  private func wake(_ schedules: [Schedule], now: Int64) -> Int64 {
    var wait = Self.longestWait
    let running = Set(children.values)
    for schedule in schedules where !running.contains(schedule.id) {
      if woken[schedule.id] == schedule.at && retries[schedule.id]?.at != schedule.at { continue }
      let due = retries[schedule.id].flatMap { $0.at == schedule.at ? $0.time : nil } ?? schedule.at
      guard due <= now else {
        wait = min(wait, due - now)
        continue
      }
      woken[schedule.id] = schedule.at
      retries[schedule.id] = nil
      var variables = environment
      for (name, value) in schedule.environment { variables[name] = value }
      if let log = schedule.log, let slash = log.lastIndex(of: "/") {
        try? POSIX.makeDirectories(String(log[..<slash]))
      }
      do {
        let pid = try Spawn.detached(schedule.command, environment: variables, output: schedule.log)
        children[pid] = schedule.id
      } catch {
        writeStderr("nbridge daemon: \(schedule.id): \(error)\n")
        retries[schedule.id] = (schedule.at, now + Int64(schedule.interval * 1000))
      }
    }
    return max(wait, 0)
  }

  /// Collects ended runs; one that left its schedule where it was is tried again an interval later.
  private func reap() {
    while true {
      var status: Int32 = 0
      let pid = waitpid(-1, &status, WNOHANG)
      guard pid > 0 else { return }
      guard let id = children.removeValue(forKey: pid) else { continue }
      if let schedule = load().first(where: { $0.id == id }), woken[id] == schedule.at {
        retries[id] = (schedule.at, ISO8601.currentMilliseconds() + Int64(schedule.interval * 1000))
      }
    }
  }

  /// Every readable `*.json` schedule in the folder.
  func load() -> [Schedule] {
    var schedules: [Schedule] = []
    for name in Directory.names(folder) ?? [] {
      guard name.hasSuffix(".json"), let text = POSIX.readText("\(folder)/\(name)"),
        let schedule = Self.parse(text)
      else { continue }
      schedules.append(schedule)
    }
    return schedules
  }

  /// The longest wait before a failed wake-up is tried again: the longest fetch interval (365
  /// days), so a record edited by hand cannot overflow the arithmetic on it.
  static let maxRetryInterval: Double = 365 * 86_400

  /// A schedule from its record's text; nil when it is not one.
  static func parse(_ text: String) -> Schedule? {
    guard let json = try? JSONValue(parsing: text), let id = json["id"]?.stringValue,
      let at = json["at"]?.numberValue.flatMap({ Int64(exactly: $0.rounded()) }), let command = json["command"]?.arrayValue?.compactMap(\.stringValue),
      !command.isEmpty
    else { return nil }
    var variables: [String: String] = [:]
    for (name, value) in json["environment"]?.objectValue ?? JSONObject() {
      if let text = value.stringValue { variables[name] = text }
    }
    return Schedule(
      id: id, at: at, interval: min(max(json["interval"]?.numberValue ?? 600, 1), maxRetryInterval), command: command,
      environment: variables, log: json["log"]?.stringValue)
  }

  private func writePID(_ lock: Int32) {
    ftruncate(lock, 0)
    let text = Array("\(getpid())\n".utf8)
    _ = text.withUnsafeBytes { pwrite(lock, $0.baseAddress, $0.count, 0) }
  }

  /// Empties the inotify descriptor (the daemon reads the folder again, whatever changed).
  private func drain(_ fd: Int32) {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
    defer { buffer.deallocate() }
    while (try? POSIX.read(fd, into: buffer, what: "the wake folder's changes")) ?? 0 > 0 {}
  }
}

/// The signals the fetch daemon and `run --watch` wait for on their `poll`: SIGCHLD (a child
/// ended) and SIGTERM/SIGINT/SIGHUP (leave).
let daemonSignals = [SIGTERM, SIGINT, SIGHUP, SIGCHLD]
