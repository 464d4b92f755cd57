import Glibc
import NBridgeModules
import NBridgeRuntime
import NBridgeSystem

/// `nbridge run --watch FILE`: runs `nbridge run FILE` as a child and starts it again when a file
/// under FILE's folder changes (inotify, changes within `settle` of each other counted once).
/// Storage is on disk, so what the script stored stays; the plugins start again with it. A
/// changed file that does not parse is reported on stderr and the running child is left alone
/// until the file is fixed. A child that ends is started again at the next change; SIGINT,
/// SIGTERM and SIGHUP stop the child and end the watch with the signal's status.
enum RunWatch {
  static let settle: Int32 = 60

  /// The arguments of `nbridge run` as given, without `--watch` (the child's).
  static func childArguments(_ arguments: [String]) -> [String] {
    var out: [String] = []
    var passed = false
    var sawRun = false
    for argument in arguments {
      if argument == "--" { passed = true }
      if !passed && !sawRun && argument == "run" {
        sawRun = true
        continue
      }
      if !passed && argument == "--watch" { continue }
      out.append(argument)
    }
    return out
  }

  /// Watches and runs; returns the exit status when a signal ends the watch.
  static func run(file: String, childArguments: [String]) -> Int32 {
    let path = absolutePath(file)
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    guard let watcher = FolderWatcher(root: folder) else {
      writeStderr("nbridge run --watch: cannot watch \(folder) (inotify)\n")
      return 1
    }
    let signals: WakeSignal
    do { signals = try Signals.install(daemonSignals) } catch {
      writeStderr("nbridge run --watch: \(error)\n")
      return 1
    }
    let environment = ProcessEnvironment.current
    func start() -> pid_t? {
      do throws(SystemError) {
        return try Spawn.start([CommandLine.arguments[0], "run"] + childArguments, environment: environment)
      } catch {
        writeStderr("nbridge run --watch: cannot start: \(error)\n")
        return nil
      }
    }
    func stop(_ pid: pid_t) {
      kill(pid, SIGTERM)
      _ = Spawn.wait(pid)
    }
    var child = start()
    var pending: [String] = []
    while true {
      var fds = [
        pollfd(fd: watcher.descriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: signals.descriptor, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&fds, 2, pending.isEmpty ? -1 : settle)
      if fds[1].revents != 0 {
        var numbers: [Int32] = []
        signals.drain { numbers.append(Int32($0)) }
        for number in numbers {
          if number == SIGCHLD {
            if let pid = child, waitpid(pid, nil, WNOHANG) == pid {
              child = nil
              writeStderr("nbridge run --watch: \(file) ended; waiting for a change to run it again\n")
            }
          } else {
            if let pid = child { stop(pid) }
            return 128 + number
          }
        }
      }
      if fds[0].revents != 0 {
        for path in watcher.changes() where !pending.contains(path) { pending.append(path) }
        continue
      }
      guard ready == 0, !pending.isEmpty else { continue }
      let paths = pending
      pending = []
      if let problem = paths.lazy.compactMap({ SourceCheck.problem(ofFile: $0) }).first {
        writeStderr("nbridge run --watch: \(problem.description); the running version keeps running until it is fixed\n")
        continue
      }
      let names = paths.filter(fileExists).map { String($0.dropFirst(folder.count + 1)) }
      writeStderr("nbridge run --watch: \(names.isEmpty ? "files removed" : names.joined(separator: ", ") + " changed"); restarting\n")
      if let pid = child {
        child = nil
        stop(pid)
      }
      child = start()
    }
  }
}
