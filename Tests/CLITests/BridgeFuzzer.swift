import Foundation
import NBridgeTesting

/// Runs Tests/fuzz/bridge-fuzz.js with the real `nbridge run` in a private HOME with no desktop
/// (no display, no session bus, the shared-store pasteboard, no fetch scheduler), and turns what
/// it saw into a report: failures the fuzzer found in process (already shrunk), or a crash or hang
/// of the runtime, narrowed to the one call that causes it alone and shrunk by replaying it.
struct BridgeFuzzer {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("fuzz/bridge-fuzz.js").path

  /// What one run of the fuzzer gave.
  struct Run {
    let status: Int32?
    let stdout: String
    let stderr: String

    /// The lines starting with `prefix` (and a space), without it.
    func lines(_ prefix: String) -> [String] {
      stdout.split(separator: "\n").compactMap {
        $0.hasPrefix(prefix + " ") ? String($0.dropFirst(prefix.count + 1)) : nil
      }
    }
    /// Ended by a signal (the runtime crashed) or not at all (a hang).
    var crashedOrHung: Bool { status == nil || status == 124 || status! > 128 }
    /// The cases it started, in order (`FUZZ-CASE n JSON`).
    var cases: [String] {
      lines("FUZZ-CASE").compactMap { line in line.firstIndex(of: " ").map { String(line[line.index(after: $0)...]) } }
    }
    /// A line saying how it ended, for a report.
    var ending: String {
      guard let status else { return "still running after its time limit (a hang)" }
      if status == 124 { return "stopped by --timeout (a hang)" }
      if status > 128 { return "killed by signal \(status - 128) (a crash)" }
      return "exit status \(status)"
    }
  }

  let seed: UInt32
  let excluded: [String]
  var denied: [String] = []

  /// Runs the fuzzer with `arguments` (after `seed=` and `exclude=`) for at most `timeout` seconds.
  func run(_ arguments: [String], timeout: Double) throws -> Run {
    let home = try TemporaryDirectory(prefix: "nbridge-fuzz")
    let runtime = home.file("run")
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime)
    var environment = NBridgeTest.headless
    for (name, path) in [
      ("HOME", "home"), ("XDG_DATA_HOME", "home/.local/share"), ("XDG_CONFIG_HOME", "home/.config"),
      ("XDG_STATE_HOME", "home/.local/state"), ("XDG_CACHE_HOME", "home/.cache"), ("NBRIDGE_DATA_DIR", "data"),
      ("NBRIDGE_SHARED_DIR", "shared"),
    ] {
      environment[name] = home.file(path)
    }
    environment["XDG_RUNTIME_DIR"] = runtime
    environment["NBRIDGE_SCHEDULER"] = "off"
    environment["NBRIDGE_PASTEBOARD_BACKEND"] = "shared"
    environment["NBRIDGE_LOG_TO"] = nil
    let deny = denied.isEmpty ? [] : ["--deny", denied.joined(separator: ",")]
    let child = try NBridgeTest.start(
      ["run", Self.script, "--timeout", String(Int(timeout))] + deny + ["--"]
        + ["seed=\(seed)", "exclude=\(excluded.joined(separator: ","))", "deny=\(denied.joined(separator: ","))"]
        + arguments,
      environment: environment)
    let status = child.wait(timeout: timeout + 30)
    if status == nil { child.stop() }
    return Run(status: status, stdout: child.stdout, stderr: child.stderr)
  }

  /// How to run this seed again by hand.
  var replayCommand: String {
    "NBRIDGE_FUZZ_SEED=\(seed) NBRIDGE_FUZZ_EXCLUDE=\(excluded.joined(separator: ",")) make fuzz"
  }

  /// What went wrong in `run`, one paragraph a problem; empty when the run passed.
  func problems(in run: Run) throws -> [String] {
    var found = run.lines("FUZZ-FAIL").map { "seed \(seed): \($0)\nreplay the run: \(replayCommand)" }
    if run.crashedOrHung {
      found.append(try narrowCrash(run))
    } else if found.isEmpty && (run.status != 0 || run.lines("FUZZ-DONE").isEmpty) {
      found.append("seed \(seed): \(run.ending) without a reported failure\n\(tail(run.stderr))")
    }
    return found
  }

  /// Replays the last cases alone until one crashes or hangs by itself, then shrinks it.
  private func narrowCrash(_ crashed: Run) throws -> String {
    var report =
      "seed \(seed): the runtime was \(crashed.ending)\nreplay the run: \(replayCommand)\nstderr:\n\(tail(crashed.stderr))"
    let suspects = Array(crashed.cases.suffix(24).reversed())
    guard let culprit = try suspects.first(where: { try replay($0).crashedOrHung }) else {
      return report + "\nnone of the last \(suspects.count) calls does it alone"
    }
    var smallest = culprit
    var tries = 0
    shrinking: while tries < 40 {
      for candidate in try run(["candidates=" + smallest], timeout: 30).lines("FUZZ-CANDIDATE") {
        tries += 1
        if try replay(candidate).crashedOrHung {
          smallest = candidate
          continue shrinking
        }
        if tries >= 40 { break }
      }
      break
    }
    let last = try replay(smallest)
    report += "\nthe call that does it alone: \(culprit)\nshrunk: \(smallest)\n"
    report += last.lines("FUZZ-SOURCE").first.map { "as JavaScript: \($0)\n" } ?? ""
    report += "it is \(last.ending); stderr:\n\(tail(last.stderr))"
    return report
  }

  private func replay(_ json: String) throws -> Run { try run(["replay=" + json], timeout: 30) }

  /// The end of `text`, or from a Swift runtime's `Fatal error` line on (the stack after it says little).
  private func tail(_ text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if let fatal = lines.firstIndex(where: { $0.contains("Fatal error") }) {
      return lines[fatal..<min(fatal + 3, lines.endIndex)].joined(separator: "\n")
    }
    return lines.suffix(12).joined(separator: "\n")
  }
}
