import Foundation
import Glibc

/// Figures measured on child processes: start-up, peers, the pasteboard across processes.
struct Processes {
  let nbridge: String
  let deno: String?
  /// `jsc-hello` (Benchmarks/JSCHello, built by `make bench`): the start-up floor; nil when not built.
  var jscHello: String? = nil
  let directory: String

  /// Environment for an `nbridge run` child: throwaway folders, the headless shared pasteboard.
  var environment: [String: String] {
    [
      "NBRIDGE_DATA_DIR": "\(directory)/data", "NBRIDGE_SHARED_DIR": "\(directory)/shared",
      "NBRIDGE_PASTEBOARD_BACKEND": "shared",
    ]
  }

  func write(_ name: String, _ text: String) -> String {
    let path = "\(directory)/\(name)"
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// (ms, MiB) for `hello.js` under nbridge, node, deno and the bare C floor (`jsc-hello`).
  func startups() -> (
    nbridge: (ms: Double, rssMiB: Double)?, node: (ms: Double, rssMiB: Double)?, deno: (ms: Double, rssMiB: Double)?,
    jscC: (ms: Double, rssMiB: Double)?
  ) {
    let hello = write("hello.js", "console.log('hello');\n")
    var commands: [(argv: [String], set: [String: String])] = [([nbridge, "run", hello], environment), (["node", hello], [:])]
    var denoIndex: Int?, jscIndex: Int?
    if let deno {
      denoIndex = commands.count
      commands.append(([deno, "run", "--quiet", hello], ["DENO_DIR": "\(directory)/deno"]))
    }
    if let jscHello {
      jscIndex = commands.count
      commands.append(([jscHello, hello], [:]))
    }
    let figures = interleavedStartups(commands)
    return (figures[0], figures[1], denoIndex.flatMap { figures[$0] }, jscIndex.flatMap { figures[$0] })
  }

  /// µs per `localStorage.setItem` in Deno, same sizes as storage.
  func denoLocalStorage(count: Int, rounds: Int) -> [Double] {
    guard let deno else { return [] }
    let script = write(
      "deno-ls.js",
      """
      const key = (prefix, i) => prefix + String(i).padStart(16 - prefix.length, '0');
      const value = 'v'.repeat(100);
      localStorage.clear();
      for (let i = 0; i < \(count / 5); i++) localStorage.setItem(key('w', i), value);
      for (let r = 0; r < \(rounds); r++) {
        const start = performance.now();
        for (let i = 0; i < \(count); i++) localStorage.setItem(key('s' + r, i), value);
        console.log('BENCH set ' + ((performance.now() - start) * 1000 / \(count)));
      }
      """)
    let child = Spawned(
      [deno, "run", "--quiet", "--location", "http://nbridge-bench.invalid/", script],
      set: ["DENO_DIR": "\(directory)/deno"], stdout: "\(directory)/deno-ls.out")
    _ = child.wait()
    return figures(child.output(), "set")
  }

  /// ms from `setString` in one process to the `change` event in another (medians of `changes`).
  func pasteboardChange(changes: Int) -> [Double] {
    let watcher = write(
      "watch.js",
      """
      let seen = 0;
      const handle = nbridge.pasteboard.addListener('change', () => {
        console.log('CHANGE ' + Date.now());
        if (++seen >= \(changes)) handle.remove();
      });
      setTimeout(() => handle.remove(), 20000);
      """)
    let writer = write(
      "write.js",
      """
      const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
      (async () => {
        for (let i = 0; i < \(changes); i++) {
          await sleep(150);
          console.log('SET ' + Date.now());
          await nbridge.pasteboard.setString({ string: 'bench ' + i });
        }
      })();
      """)
    let watching = Spawned(
      [nbridge, "run", watcher], set: environment, unset: ["DISPLAY", "WAYLAND_DISPLAY"],
      stdout: "\(directory)/watch.out")
    usleep(700_000)
    let writing = Spawned(
      [nbridge, "run", writer], set: environment, unset: ["DISPLAY", "WAYLAND_DISPLAY"],
      stdout: "\(directory)/write.out")
    _ = writing.wait()
    usleep(300_000)
    kill(watching.pid, SIGTERM)
    _ = watching.wait()
    let sets = lines(writing.output(), "SET")
    let seen = lines(watching.output(), "CHANGE")
    return sets.compactMap { set in seen.first { $0 >= set }.map { $0 - set } }
  }

  /// µs per storage `set` (sequential and burst) and `get`, 16-byte keys and 100-byte (JSON) values,
  /// by `nbridge run` of a script, as a user runs one (a fresh process with the built-in plugins).
  func storage(count: Int, rounds: Int, dataDirectory: String) -> [String: [Double]] {
    let script = write(
      "storage.js",
      """
      const key = (prefix, i) => prefix + String(i).padStart(16 - prefix.length, '0');
      const value = 'v'.repeat(98);
      (async () => {
        for (let i = 0; i < \(count / 5); i++) await nbridge.storage.set({ key: key('w', i), value });
        for (let r = 0; r < \(rounds); r++) {
          let start = Date.now();
          for (let i = 0; i < \(count); i++) await nbridge.storage.set({ key: key('s' + r, i), value });
          console.log('BENCH set ' + ((Date.now() - start) * 1000 / \(count)));
          start = Date.now();
          const all = [];
          for (let i = 0; i < \(count); i++) all.push(nbridge.storage.set({ key: key('b' + r, i), value }));
          await Promise.all(all);
          console.log('BENCH burst ' + ((Date.now() - start) * 1000 / \(count)));
          start = Date.now();
          for (let i = 0; i < \(count); i++) await nbridge.storage.get({ key: key('s' + r, i) });
          console.log('BENCH get ' + ((Date.now() - start) * 1000 / \(count)));
        }
      })();
      """)
    var set = environment
    set["NBRIDGE_DATA_DIR"] = dataDirectory
    let run = Spawned([nbridge, "run", script], set: set, stdout: "\(directory)/storage.out")
    guard run.wait().status == 0 else { return [:] }
    let text = run.output()
    return ["set": figures(text, "set"), "burst": figures(text, "burst"), "get": figures(text, "get")]
  }

  /// CPU time of a process that only watches the pasteboard over `seconds`, in % of one core.
  func watchIdleCPU(seconds: Double) -> Double? {
    let watcher = write("idle.js", "nbridge.pasteboard.addListener('change', () => {});\n")
    let watching = Spawned([nbridge, "run", watcher], set: environment, unset: ["DISPLAY", "WAYLAND_DISPLAY"])
    usleep(1_000_000)
    let before = watching.cpuSeconds()
    let start = Clock.nanos()
    usleep(UInt32(seconds * 1e6))
    let after = watching.cpuSeconds()
    let elapsed = Double(Clock.nanos() - start) / 1e9
    kill(watching.pid, SIGTERM)
    _ = watching.wait()
    guard !before.isNaN, !after.isNaN else { return nil }
    return (after - before) / elapsed * 100
  }

  /// Peak RSS (MiB) of `nbridge-bench-calls` (beside this program) making `count` sequential echo
  /// calls: the child prints its own `VmHWM` (its `ru_maxrss` would include ours, inherited at exec).
  func rssAfterCalls(count: Int) -> Double? {
    let program = CommandLine.arguments[0] + "-calls"
    let child = Spawned([program, String(count), directory], stdout: "\(directory)/calls.out")
    guard child.wait().status == 0 else { return nil }
    return lines(child.output(), "VmHWM").first.map { $0 / 1024 }
  }

  func lines(_ text: String, _ tag: String) -> [Double] {
    text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: " ")
      return parts.count == 2 && parts[0] == tag ? Double(parts[1]) : nil
    }
  }

  func figures(_ text: String, _ name: String) -> [Double] {
    text.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: " ")
      return parts.count == 3 && parts[0] == "BENCH" && parts[1] == name ? Double(parts[2]) : nil
    }
  }
}
