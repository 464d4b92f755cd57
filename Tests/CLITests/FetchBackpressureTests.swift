import Foundation
import NBridgeTesting
import Testing

/// `fetch` reads a response body as it is consumed: a body nobody reads stalls the server after
/// a bounded read-ahead (and keeps nothing alive), an abort closes the connection and frees what
/// was read. The local server's `/endless` body reports how much it could write, whether the
/// client stopped reading (`stalled`) and whether it closed the connection (`closed`).
@Suite(.onTestThreads) struct FetchBackpressureTests {
  let dir: TemporaryDirectory
  let server: LocalHTTPServer
  var env: [String: String?]

  /// What the server could write to a client that never reads, at most: the read-ahead plus the
  /// two sockets' kernel buffers (a few MiB on loopback); without backpressure it is the cap (128 MiB).
  static let stallBound = 32 * 1024 * 1024
  /// The run's peak resident memory, at most (a run that fetches nothing peaks near 40 MiB).
  static let memoryBound = 160 * 1024

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-fetch-bp")
    server = try LocalHTTPServer()
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  func script(_ body: String) throws -> String {
    try dir.write("app/main.js", "const base = '\(server.base())';\n" + body)
  }

  /// The peak resident set (VmHWM) of a running process, in KiB.
  func peakMemory(_ pid: Int32) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
  }

  @Test func anUnreadEndlessBodyStallsTheServerAndEndsTheRun() throws {
    let path = try script(
      """
      const res = await fetch(base + '/endless');
      const state = await (await fetch(base + '/endless-state/stalled')).json();
      console.log(res.status, JSON.stringify(state));
      """)
    let r = try NBridgeTest.command(["run", path], environment: env, timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    let line = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
    #expect(line.hasPrefix("200 "), "\(r.stdout)")
    let state = try JSONSerialization.jsonObject(with: Data(line.dropFirst(4).utf8)) as? [String: Any] ?? [:]
    #expect(state["stalled"] as? Bool == true, "\(state)")
    #expect(state["capped"] as? Bool == false, "\(state)")
    let written = state["written"] as? Int ?? .max
    #expect(written <= Self.stallBound, "the server wrote \(written) bytes to a client that read none")
  }

  @Test func anAbortWhileTheBodyWaitsClosesTheConnection() throws {
    let path = try script(
      """
      const controller = new AbortController();
      const res = await fetch(base + '/endless', { signal: controller.signal });
      const stalled = await (await fetch(base + '/endless-state/stalled')).json();
      controller.abort();
      const closed = await (await fetch(base + '/endless-state/closed')).json();
      const read = await res.text().then(() => 'read', (e) => e.name);
      console.log(stalled.stalled, stalled.capped, closed.closed, read);
      setInterval(() => {}, 60000);
      """)
    let child = try NBridgeTest.start(["run", path], environment: env)
    defer { child.stop() }
    #expect(child.waitForOutput("\n", timeout: 60), "\(child.stderr)")
    #expect(child.stdout == "true false true AbortError\n", "\(child.stderr)")
    let peak = peakMemory(child.pid) ?? .max
    #expect(peak <= Self.memoryBound, "peak resident memory \(peak) KiB")
  }

  @Test func anAbortWhileTheBodyIsReadClosesTheConnection() throws {
    let path = try script(
      """
      const controller = new AbortController();
      const res = await fetch(base + '/endless?pause=8', { signal: controller.signal });
      const reading = res.text().then(() => 'read', (e) => e.name);
      const paused = await (await fetch(base + '/endless-state/paused')).json();
      controller.abort();
      const closed = await (await fetch(base + '/endless-state/closed')).json();
      console.log(paused.paused, paused.written, await reading, closed.closed);
      setInterval(() => {}, 60000);
      """)
    let child = try NBridgeTest.start(["run", path], environment: env)
    defer { child.stop() }
    #expect(child.waitForOutput("\n", timeout: 60), "\(child.stderr)")
    #expect(child.stdout == "true \(8 * 1024 * 1024) AbortError true\n", "\(child.stderr)")
    let peak = peakMemory(child.pid) ?? .max
    #expect(peak <= Self.memoryBound, "peak resident memory \(peak) KiB")
  }

  @Test func aBodyReadAfterItStalledArrivesWhole() throws {
    let path = try script(
      """
      const res = await fetch(base + '/endless?total=24');
      const stalled = await (await fetch(base + '/endless-state/stalled')).json();
      const bytes = new Uint8Array(await res.arrayBuffer());
      console.log(stalled.stalled, stalled.ended, bytes.length, bytes.every((b) => b === 120));
      """)
    let r = try NBridgeTest.command(["run", path], environment: env, timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "true false \(24 * 1024 * 1024) true\n")
  }

  @Test func anUnreadBodyDoesNotKeepTheRunAlive() throws {
    let path = try script(
      """
      const res = await fetch(base + '/endless?pause=64');
      console.log(res.status, res.bodyUsed);
      """)
    let r = try NBridgeTest.command(["run", path], environment: env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "200 false\n")
  }

  @Test func unreadBodiesNeverBlockLaterRequests() throws {
    // Each 4 MiB body outlasts the read-ahead, so it holds its connection while unread; past 32
    // of them the oldest are discarded rather than every later request waiting for good.
    let path = try script(
      """
      const responses = [];
      for (let i = 0; i < 34; i++) responses.push(await fetch(base + '/big/4'));
      // Read only once every head is there (reading one takes it off the unread list).
      const hello = await (await fetch(base + '/hello')).text();
      const outcome = (r) => r.arrayBuffer().then((b) => b.byteLength, (e) => e.cause.code);
      console.log(await outcome(responses[0]), await outcome(responses[1]), await outcome(responses[2]));
      console.log(await outcome(responses[33]), hello);
      """)
    let r = try NBridgeTest.command(["run", path], environment: env, timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "body_discarded body_discarded 4194304\n4194304 hello from the server\n")
  }
}
