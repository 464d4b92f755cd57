import Glibc
import NBridgeRuntime
import NBridgeSystem

/// WebKit's helper processes (web, network) end with the window; the app waits for them so that
/// nothing it started outlives it, even where nobody reaps orphans. Other children (a test's own
/// servers, in an embedding program) are left alone.
enum HelperProcesses {
  /// Sends SIGTERM to WebKit's children of this process and waits up to `seconds` for them.
  static func stop(waitingAtMost seconds: Double = 2) {
    let children = childPIDs().filter { pid in
      PageFolder.contents(of: "/proc/\(pid)/comm").map { String(decoding: $0, as: UTF8.self).hasPrefix("WebKit") } ?? false
    }
    for pid in children { kill(pid, SIGTERM) }
    var left = Set(children)
    var waited = 0.0
    while !left.isEmpty && waited < seconds {
      for pid in left where waitpid(pid, nil, WNOHANG) != 0 { left.remove(pid) }
      if !left.isEmpty {
        usleep(10_000)
        waited += 0.01
      }
    }
    for pid in left {
      kill(pid, SIGKILL)
      waitpid(pid, nil, 0)
    }
  }

  /// The children of every thread of this process (`/proc/self/task/*/children`).
  static func childPIDs() -> [pid_t] {
    var pids: [pid_t] = []
    for name in Directory.names("/proc/self/task") ?? [] {
      guard let tid = Int(name), let text = PageFolder.contents(of: "/proc/self/task/\(tid)/children") else { continue }
      pids += String(decoding: text, as: UTF8.self).split(separator: " ").compactMap { pid_t($0) }
    }
    return pids
  }
}
