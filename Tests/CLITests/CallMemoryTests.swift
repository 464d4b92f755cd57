import Foundation
import NBridgeTesting
import Testing

/// Memory under many bridge calls, measured in a process of its own: a test process's size also
/// holds whatever its other suites allocate at the same moment.
@Suite(.onTestThreads) struct CallMemoryTests {
  /// The peak resident size (`VmHWM`, MiB) of a run that made `calls` sequential calls,
  /// read once the script says it is done (the run then waits to be stopped).
  static func peakMiB(afterCalls calls: Int) throws -> Double {
    let dir = try TemporaryDirectory(prefix: "nbridge-calls")
    let script = dir.file("calls.js")
    try """
    (async () => {
      for (let i = 0; i < \(calls); i++) await nbridge.app.getState();
      console.log('done');
      setTimeout(() => {}, 60000);
    })();
    """.write(toFile: script, atomically: true, encoding: .utf8)
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["XDG_RUNTIME_DIR"] = dir.file("xdg")
    try FileManager.default.createDirectory(atPath: dir.file("xdg"), withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: dir.file("xdg"))
    let run = try NBridgeTest.start(["run", script], environment: env)
    defer { run.stop() }
    guard run.waitForOutput("done", timeout: 300) else {
      Issue.record("the run never finished its calls: \(run.stderr)")
      return .nan
    }
    let status = try String(contentsOfFile: "/proc/\(run.pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
    let kib = try #require(Double(line.split(separator: " ").dropFirst().first ?? ""))
    return kib / 1024
  }

  /// Ten times the calls, the same peak: what a call allocates is collected, not kept (a leak of
  /// even 100 bytes a call would add 21 MiB over the 225,000 more calls).
  @Test func tenTimesTheCallsKeepTheSamePeak() throws {
    let few = try Self.peakMiB(afterCalls: 25_000)
    let many = try Self.peakMiB(afterCalls: 250_000)
    #expect(many - few < 16, "peak \(few) MiB after 25,000 calls, \(many) MiB after 250,000")
    #expect(many < 200, "peak \(many) MiB after 250,000 calls")
  }
}
