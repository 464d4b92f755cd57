import Foundation
import Glibc

/// Socket logging (issue 16): what one `nbridge.log.info` costs the JS thread, how many lines a
/// second reach `nbridge logs --json > /dev/null`, and what a viewer started late misses.
struct LogBench {
  let nbridge: String
  let directory: String

  var environment: [String: String] { ["NBRIDGE_DATA_DIR": "\(directory)/data", "NBRIDGE_SHARED_DIR": "\(directory)/shared"] }

  func write(_ name: String, _ text: String) -> String {
    let path = "\(directory)/\(name)"
    try! text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// µs per `nbridge.log.info('message', i)` on the JS thread, printing to a file: forwarding to
  /// a port nothing listens on (records encoded and queued), and without `--log-to`.
  func callCost(calls: Int) -> (forwarding: Double?, plain: Double?) {
    let script = write(
      "log-call.js",
      """
      for (let i = 0; i < \(calls / 10); i++) nbridge.log.info('warm', i);
      const start = Date.now();
      for (let i = 0; i < \(calls); i++) nbridge.log.info('message', i);
      console.log('BENCH log ' + ((Date.now() - start) * 1000 / \(calls)));
      """)
    func measure(_ extra: [String]) -> Double? {
      let out = "\(directory)/log-call.out"
      let child = Spawned([nbridge, "run"] + extra + [script], set: environment, stdout: out)
      _ = child.wait()
      let line = child.output().split(separator: "\n").last { $0.hasPrefix("BENCH log ") }
      return line.flatMap { Double($0.dropFirst("BENCH log ".count)) }
    }
    return (measure(["--log-to", ":\(LogBench.deadPort())"]), measure([]))
  }

  /// Lines a second from the first `nbridge.log` call until the viewer has acknowledged all `lines`
  /// (the run exits after its last ack); nil when some were not delivered.
  func throughput(lines: Int) -> Double? {
    guard let viewer = startViewer(stdout: "/dev/null") else { return nil }
    defer { stop(viewer.process) }
    let script = write(
      "log-throughput.js",
      """
      console.log('START ' + Date.now());
      for (let i = 0; i < \(lines); i++) nbridge.log.info('line ' + i);
      """)
    let errors = "\(directory)/log-throughput.err"
    let child = Spawned(
      [nbridge, "run", "--log-to", ":\(viewer.port)", "--log-queue", String(lines * 2), script], set: environment,
      stdout: "\(directory)/log-throughput.out", stderr: errors)
    let status = child.wait().status
    let exited = Date().timeIntervalSince1970 * 1000
    let undelivered = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    guard status == 0, !undelivered.contains("not delivered"),
      let start = child.output().split(separator: "\n").first(where: { $0.hasPrefix("START ") }).flatMap({ Double($0.dropFirst(6)) })
    else {
      progress("log throughput: status \(status), \(undelivered)")
      return nil
    }
    return Double(lines) / ((exited - start) / 1000)
  }

  /// `lines` logged at once, the viewer started `delay` seconds later, a queue of `queue`: how
  /// many never reached the viewer and how many it printed twice.
  func lateViewer(lines: Int, delay: Double, queue: Int) -> (lost: Int, doubled: Int)? {
    let port = LogBench.deadPort()
    let script = write(
      "log-late.js",
      """
      for (let i = 0; i < \(lines); i++) nbridge.log.info('line ' + i);
      setTimeout(() => {}, \(Int(delay * 1000) + 2500));
      """)
    let child = Spawned(
      [nbridge, "run", "--log-to", ":\(port)", "--log-queue", String(queue), script], set: environment,
      stdout: "\(directory)/log-late.out", stderr: "\(directory)/log-late.err")
    usleep(UInt32(delay * 1_000_000))
    let output = "\(directory)/log-late.json"
    guard let viewer = startViewer(port: port, stdout: output) else { return nil }
    _ = child.wait()
    usleep(200_000)
    stop(viewer.process)
    var seen = Set<Int>()
    var total = 0
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      guard let range = line.range(of: #""seq":"#) else { continue }
      let digits = line[range.upperBound...].prefix { $0.isNumber }
      guard let seq = Int(digits), line.contains(#""src":"log""#) else { continue }
      total += 1
      seen.insert(seq)
    }
    let wanted = Set(1...lines)
    return (wanted.subtracting(seen).count, total - seen.count)
  }

  private func startViewer(port: UInt16 = 0, stdout: String) -> (process: Spawned, port: UInt16)? {
    let errors = "\(directory)/viewer-\(port).err"
    let viewer = Spawned([nbridge, "logs", "--json", "--port", String(port)], stdout: stdout, stderr: errors)
    for _ in 0..<500 {
      let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      if let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }),
        let chosen = line.split(separator: ":").last.flatMap({ UInt16($0) })
      {
        return (viewer, chosen)
      }
      usleep(10_000)
    }
    stop(viewer)
    progress("nbridge logs did not start")
    return nil
  }

  private func stop(_ process: Spawned) {
    kill(process.pid, SIGINT)
    _ = process.wait()
  }

  /// A loopback port nothing listens on (bound and closed).
  static func deadPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        _ = bind(fd, raw, length)
        _ = getsockname(fd, raw, &length)
      }
    }
    return UInt16(bigEndian: address.sin_port)
  }
}
