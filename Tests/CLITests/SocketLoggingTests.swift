import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge.log`, `--log-to` and `nbridge logs`: real apps, a real viewer, real sockets.
@Suite(.onTestThreads) struct SocketLoggingTests {
  let dir: TemporaryDirectory
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-log")
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["NBRIDGE_LOG_TO"] = nil
  }

  /// Writes `script` as `<app>/app.js` beside a manifest with id `app`; returns its path.
  func write(_ script: String, app: String = "dev.test.log", manifest: String? = nil) throws -> String {
    try dir.write("\(app)/nbridge.json", manifest ?? #"{"id": "\#(app)"}"#)
    return try dir.write("\(app)/app.js", script)
  }

  func seqs(_ records: [[String: Any]]) -> [Int] { records.compactMap { $0["seq"] as? Int } }

  @Test func recordsArriveInOrderWithTheScriptsPlace() throws {
    let viewer = try LogViewerProcess()
    let path = try write(
      """
      function greet(name) {
        nbridge.log.info('hello', name, { n: 1 });
      }
      greet('world');
      nbridge.log.warning('careful');
      console.log('plain %d', 7);
      nbridge.log.error(new Error('bad').message);
      nbridge.log.debug('details');
      """)
    let r = try NBridgeTest.command(["run", "--log-to", ":\(viewer.port)", path], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "[INFO] app.js:2 hello world { n: 1 }\nplain 7\n[DEBUG] app.js:8 details\n")
    #expect(r.stderr == "[WARN] app.js:5 careful\n[ERROR] app.js:7 bad\n")
    #expect(viewer.waitForRecords(5))
    let records = viewer.records
    #expect(seqs(records) == [1, 2, 3, 4, 5])
    #expect(records.map { $0["msg"] as? String } == ["hello world { n: 1 }", "careful", "plain 7", "bad", "details"])
    #expect(records.map { $0["level"] as? String } == ["info", "warn", "info", "error", "debug"])
    #expect(records.map { $0["line"] as? Int } == [2, 5, 0, 7, 8])
    #expect(records.map { $0["src"] as? String } == ["log", "log", "console", "log", "log"])
    #expect(records[0]["file"] as? String == path)
    // JavaScriptCore's column for a call is its opening parenthesis.
    #expect(records[0]["col"] as? Int == 19)
    #expect(records[0]["fn"] as? String == "greet")
    #expect(records[1]["fn"] as? String == "")
    #expect(records.allSatisfy { $0["app"] as? String == "dev.test.log" })
    #expect(records.allSatisfy { ($0["pid"] as? Int ?? 0) > 0 && ($0["t"] as? Double ?? 0) > 1.7e12 })
  }

  @Test func aLogMessageReadsAsConsoleWouldPrintIt() throws {
    // Strings and numbers take a shortcut past the formatter; it must print what the formatter would.
    let cases =
      #"[['a', 1, -0, 'b'], ['x', NaN, -Infinity, -1.5, 1e21], ['100%', 2], ['%d items', 3], ['%%'], ['a', true], "#
      + #"[1, 'a'], ['s', '%s'], ['', ''], ['a', null, undefined], ['o', { k: 'v' }, [1]], []]"#
    let path = try write(
      """
      for (const args of \(cases)) {
        console.log(...args);
        nbridge.log.info(...args);
      }
      """)
    let r = try NBridgeTest.command(["run", path], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 24, "\(r.stdout)")
    for pair in stride(from: 0, to: lines.count - 1, by: 2) {
      #expect("[INFO] app.js:3 " + lines[pair] == lines[pair + 1])
    }
    #expect(lines.first == "a 1 -0 b")
    // No arguments: an empty line, as Node and a page's console print it.
    #expect(lines[22] == "" && lines[23] == "[INFO] app.js:3 ")
  }

  @Test func levelFromTheFlagOrTheManifest() throws {
    let script = "nbridge.log.debug('d'); nbridge.log.info('i'); nbridge.log.warn('w'); nbridge.log.error('e');"
    let flag = try NBridgeTest.command(["run", "--log-level", "warn", try write(script)], environment: env)
    #expect(flag.stdout.isEmpty && flag.stderr == "[WARN] app.js:1 w\n[ERROR] app.js:1 e\n")
    let manifested = try write(
      script, app: "dev.test.quiet", manifest: #"{"id": "dev.test.quiet", "log": {"level": "info"}}"#)
    let fromManifest = try NBridgeTest.command(["run", manifested], environment: env)
    #expect(fromManifest.stdout == "[INFO] app.js:1 i\n")
    let overridden = try NBridgeTest.command(["run", "--log-level", "error", manifested], environment: env)
    #expect(overridden.stdout.isEmpty && overridden.stderr == "[ERROR] app.js:1 e\n")

    let bad = try write(script, app: "dev.test.bad", manifest: #"{"id": "dev.test.bad", "log": {"level": "loud"}}"#)
    let refused = try NBridgeTest.command(["run", bad], environment: env)
    #expect(refused.status == 2 && refused.stderr.contains("\"log.level\""), "\(refused.stderr)")
    let unknown = try write(script, app: "dev.test.odd", manifest: #"{"id": "dev.test.odd", "log": {"to": ":2532"}}"#)
    let odd = try NBridgeTest.command(["run", unknown], environment: env)
    #expect(odd.status == 2 && odd.stderr.contains("\"log.to\""), "\(odd.stderr)")
    let flagged = try NBridgeTest.command(["run", "--log-level", "loud", bad], environment: env)
    #expect(flagged.status == 2 && flagged.stderr.contains("--log-level"))
    let target = try NBridgeTest.command(["run", "--log-to", "localhost", try write(script)], environment: env)
    #expect(target.status == 2 && target.stderr.contains("--log-to"))
  }

  @Test func viewerFiltersByLevelAppAndText() throws {
    let viewer = try LogViewerProcess(["--level", "warn", "--app", "dev.test.a", "--grep", "needle"])
    let script = """
      nbridge.log.info('needle at info');
      nbridge.log.warn('needle at warn');
      nbridge.log.warn('hay at warn');
      nbridge.log.error('needle at error');
      """
    for app in ["dev.test.a", "dev.test.b"] {
      let r = try NBridgeTest.command(
        ["run", "--log-to", ":\(viewer.port)", try write(script, app: app)], environment: env)
      #expect(r.status == 0, "\(r.stderr)")
      // The viewer acknowledges a record once it has printed it, and a run ends after its acknowledgements.
      #expect(!r.stderr.contains("not delivered"), "\(r.stderr)")
    }
    viewer.stop()
    let lines = viewer.child.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    let pattern = #/^\d\d:\d\d:\d\d\.\d\d\d (WARN |ERROR) dev\.test\.a app\.js:(\d)  (.*)$/#
    let parsed = lines.compactMap { try? pattern.wholeMatch(in: $0) }
    #expect(parsed.map { String($0.output.3) } == ["needle at warn", "needle at error"])
    #expect(parsed.map { String($0.output.2) } == ["2", "4"])
    // Not a terminal: no colour.
    #expect(!viewer.child.stdout.contains("\u{1B}["))
  }

  @Test func aViewerStartedLateGetsEveryLineOnce() throws {
    let port = try LogViewerProcess.freePort()
    let path = try write(
      """
      for (let i = 0; i < 5000; i++) nbridge.log.info('line ' + i);
      setTimeout(() => {}, 60000);
      """)
    let app = try NBridgeTest.start(["run", "--log-to", ":\(port)", path], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("line 4999\n", timeout: 30))
    // Late: the app has logged every line with no viewer to take them.
    let viewer = try LogViewerProcess(port: port)
    // The app retries with backoff (at most 5 s apart) and keeps every line meanwhile.
    #expect(viewer.waitForRecords(5000))
    // Stopped, it waits for the last acknowledgements: nothing is left undelivered.
    app.signal(SIGTERM)
    #expect(app.wait(timeout: 30) == 143)
    #expect(!app.stderr.contains("not delivered"), "\(app.stderr)")
    viewer.stop()
    let records = viewer.records
    #expect(seqs(records) == Array(1...5000))
    #expect(records.map { $0["msg"] as? String ?? "" } == (0..<5000).map { "line \($0)" })
  }

  @Test func aRestartedViewerLeavesNoGapAndNoDuplicate() throws {
    let first = try LogViewerProcess()
    let port = first.port
    let path = try write(
      """
      let i = 0;
      const timer = setInterval(() => {
        for (let k = 0; k < 20; k++) nbridge.log.info('line ' + i++);
        if (i >= 5000) {
          clearInterval(timer);
          setTimeout(() => {}, 60000);
        }
      }, 10);
      """)
    let app = try NBridgeTest.start(["run", "--log-to", ":\(port)", path], environment: env)
    defer { app.stop() }
    #expect(first.waitForRecords(500))
    #expect(first.stop() == 0)
    let second = try LogViewerProcess(port: port)
    #expect(second.waitForRecords(5000 - first.lineCount))
    app.signal(SIGTERM)
    #expect(app.wait(timeout: 30) == 143)
    #expect(!app.stderr.contains("not delivered"), "\(app.stderr)")
    second.stop()
    let before = first.records
    let after = second.records
    #expect(before.count < 5000 && !after.isEmpty, "the first viewer got \(before.count), the second \(after.count)")
    #expect(seqs(before + after) == Array(1...5000))
    #expect((before + after).map { $0["msg"] as? String ?? "" } == (0..<5000).map { "line \($0)" })
  }

  @Test func aSmallQueueKeepsTheNewestAndSaysWhatWentMissing() throws {
    let port = try LogViewerProcess.freePort()
    let path = try write(
      """
      for (let i = 0; i < 5000; i++) nbridge.log.info('line ' + i);
      setTimeout(() => {}, 60000);
      """)
    let app = try NBridgeTest.start(["run", "--log-to", ":\(port)", "--log-queue", "1000", path], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("line 4999\n", timeout: 30))
    let viewer = try LogViewerProcess(port: port)
    #expect(viewer.waitForRecords(1001))
    app.signal(SIGTERM)
    #expect(app.wait(timeout: 30) == 143)
    #expect(!app.stderr.contains("not delivered"), "\(app.stderr)")
    viewer.stop()
    let records = viewer.records
    #expect(records.count == 1001)
    #expect(records.first?["dropped"] as? Int == 4000)
    #expect(records.first?["from"] as? Int == 1 && records.first?["to"] as? Int == 4000)
    #expect(seqs(Array(records.dropFirst())) == Array(4001...5000))
    #expect(records.dropFirst().map { $0["msg"] as? String ?? "" } == (4000..<5000).map { "line \($0)" })
  }

  @Test func withNothingListeningTheAppExitsAtOnceAndCountsWhatWasLost() throws {
    let port = try LogViewerProcess.freePort()
    let path = try write(
      """
      for (let i = 0; i < 100; i++) nbridge.log.info('line ' + i);
      console.log('END ' + Date.now());
      """)
    // The shell prints the time the moment nbridge has exited.
    let r = try ChildProcess.run(
      "/bin/sh", ["-c", "\"$0\" run --log-to :\(port) \"$1\"; date +%s%3N", NBridgeTest.executable, path], environment: env)
    let end = r.stdout.split(separator: "\n").first { $0.hasPrefix("END ") }.flatMap { Double($0.dropFirst(4)) }
    let exited = r.stdout.split(separator: "\n").last.flatMap { Double($0) }
    let gap = (exited ?? .infinity) - (end ?? 0)
    // Well under the 2 s a run waits when a viewer is connected, with room for a loaded machine.
    #expect(gap < 1500, "exited \(gap) ms after the script's end")
    #expect(r.stderr.contains("nbridge: 101 log records not delivered to 127.0.0.1:\(port)\n"), "\(r.stderr)")
  }

  @Test func theViewerTakesOnlyLoopbackPeersUnlessToldOtherwise() throws {
    func greets(_ client: RawClient) -> Bool {
      client.send(
        #"{"hello":1,"app":"dev.raw","pid":1,"run":"r"}"# + "\n" + #"{"seq":1,"t":0,"level":"info","msg":"hi"}"# + "\n")
      return client.readLine() == #"{"ack":1}"#
    }
    let viewer = try LogViewerProcess()
    // 127.0.0.0/8 is all loopback: another address in it is as local as 127.0.0.1.
    #expect(greets(try RawClient(to: "127.0.0.1", port: viewer.port, from: "127.0.0.2")))
    // This machine's own LAN address, when it has one, is not loopback, even connecting to 127.0.0.1.
    // (Every machine gets the same check in a network namespace of its own: the next test.)
    if let lan = RawClient.nonLoopbackAddress() {
      #expect(!greets(try RawClient(to: "127.0.0.1", port: viewer.port, from: lan)))
      #expect(viewer.child.stderr.contains("refused \(lan):"))
      let open = try LogViewerProcess(["--json", "--host", "0.0.0.0"])
      #expect(greets(try RawClient(to: "127.0.0.1", port: open.port, from: lan)))
      #expect(greets(try RawClient(to: lan, port: open.port)))
    }
  }

  /// A machine may have no address but loopback, so the refusal is also checked where one is made:
  /// a private network (and PID) namespace whose `lo` also carries 192.0.2.1 (TEST-NET-1), the
  /// source its routes give connections to 127.0.0.1. A real app sends to a real viewer there;
  /// the namespace's first process takes every other with it when it ends. Needs `unshare` and
  /// `ip`, as root or with user namespaces (`-r`); without them it fails and says so.
  @Test func aPeerThatIsNotLoopbackIsRefusedInANamespaceOfItsOwn() throws {
    let app = try write("nbridge.log.info('from afar');")
    let script = try dir.write(
      "namespace.sh",
      #"""
      set -u
      nbridge=$1 app=$2 out=$3
      PATH=$PATH:/usr/sbin:/sbin
      ip link set lo up && ip addr add 192.0.2.1/32 dev lo &&
        ip route replace local 127.0.0.1 dev lo table local src 192.0.2.1 &&
        ip route replace local 127.0.0.0/8 dev lo table local src 192.0.2.1 || { echo "no namespace network" >&2; exit 3; }
      # A viewer (default: loopback only, or --host 0.0.0.0) and one app run against it.
      round() {
        name=$1; shift
        "$nbridge" logs --json --port 2532 "$@" >"$out/$name.viewer.out" 2>"$out/$name.viewer.err" &
        viewer=$!
        for _ in $(seq 200); do grep -q "listening on" "$out/$name.viewer.err" && break; sleep 0.05; done
        "$nbridge" run --log-to :2532 "$app" >"$out/$name.app.out" 2>"$out/$name.app.err"
        kill -INT $viewer
        wait $viewer
      }
      round refusing
      round open --host 0.0.0.0
      """#)
    let unshare = ChildProcess.resolve("unshare")
    let flags = getuid() == 0 ? ["-n", "-p", "-f", "--kill-child"] : ["-r", "-n", "-p", "-f", "--kill-child"]
    let r = try ChildProcess.run(
      unshare, flags + ["/bin/sh", script, NBridgeTest.executable, app, dir.path], environment: env, timeout: 60)
    try #require(r.status == 0, "could not run in a network namespace of its own (\(r.status)): \(r.stderr)")
    func read(_ name: String) -> String { (try? String(contentsOfFile: dir.file(name), encoding: .utf8)) ?? "" }
    // Refused: the viewer names the peer and prints nothing; the app says its record did not get through.
    #expect(read("refusing.viewer.err").contains("refused 192.0.2.1:"), "\(read("refusing.viewer.err"))")
    #expect(read("refusing.viewer.out").isEmpty)
    #expect(read("refusing.app.err").contains("1 log record not delivered"), "\(read("refusing.app.err"))")
    // Listening on every address, the viewer takes the same peer.
    #expect(!read("open.viewer.err").contains("refused"))
    #expect(read("open.viewer.out").contains(#""msg":"from afar""#), "\(read("open.viewer.out"))")
    #expect(!read("open.app.err").contains("not delivered"), "\(read("open.app.err"))")
  }

  @Test func newlinesEmojiAndLoneSurrogatesRoundTrip() throws {
    let texts =
      #"['two\nlines', 'tab\tquote" back\\slash', 'emoji 😀 ☃', 'lone \uD800 high', 'lone \uDC00 low', 'end \uD83D', '\u0001\u001f', '']"#
    let viewer = try LogViewerProcess()
    let path = try write("for (const t of \(texts)) nbridge.log.info(t);")
    let r = try NBridgeTest.command(["run", "--log-to", ":\(viewer.port)", path], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(viewer.waitForRecords(8))
    viewer.stop()
    // JSON is JavaScript: the viewer's lines, pasted into a script, compared there with the originals.
    let lines = viewer.child.stdout.split(separator: "\n").joined(separator: ",\n")
    let check = try dir.write(
      "check.js",
      """
      const got = [\(lines)].map((r) => r.msg);
      const want = \(texts);
      console.log(JSON.stringify(got) === JSON.stringify(want) ? 'same' : 'different: ' + JSON.stringify(got));
      """)
    let compared = try NBridgeTest.command(["run", check], environment: env)
    #expect(compared.stdout == "same\n", "\(compared.stdout)\(compared.stderr)")
  }

  @Test func garbageOnThePortDoesNotStopTheViewer() throws {
    let viewer = try LogViewerProcess()
    let junk = try RawClient(to: "127.0.0.1", port: viewer.port)
    junk.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    junk.send([0xFF, 0xFE, 0x00, 0x0A, 0x7B, 0x22, 0x0A])
    junk.send(#"{"seq":"one"}"# + "\n" + #"{"seq":1,"msg":"\q"}"# + "\n" + #"{"seq":1,"a":{"nested":1}}"# + "\n")
    junk.send(Array(#"{"seq":1,"msg":""#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8))
    junk.send(Array(repeating: UInt8(ascii: "x"), count: 1 << 20))
    let path = try write("nbridge.log.info('still here');")
    let r = try NBridgeTest.command(["run", "--log-to", ":\(viewer.port)", path], environment: env)
    #expect(r.status == 0 && !r.stderr.contains("not delivered"), "\(r.stderr)")
    #expect(viewer.waitForRecords(1))
    #expect(viewer.records.map { $0["msg"] as? String } == ["still here"])
    #expect(viewer.child.isRunning)
    junk.send("\n")
    withExtendedLifetime(junk) {}
  }

  @Test func aSecondViewerOnTheSamePortExitsOne() throws {
    let viewer = try LogViewerProcess()
    let second = try NBridgeTest.command(["logs", "--port", String(viewer.port)], timeout: 20)
    #expect(second.status == 1)
    #expect(second.stderr == "nbridge logs: 127.0.0.1:\(viewer.port) is in use (another viewer?)\n")
  }
}
