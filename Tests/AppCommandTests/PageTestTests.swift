import Foundation
import NBridgeTesting
import Testing

/// `nbridge test --page`: the test files in a window of the app (WebKitGTK), on an Xvfb nbridge
/// starts and stops itself when there is no display.
@Suite(.onTestThreads) struct PageTestTests {
  /// The package's folder (Tests/js and www/ are there).
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// Runs `nbridge` in the package's folder without a display (nbridge starts its own Xvfb).
  static func run(_ arguments: [String], environment: [String: String?] = NBridgeTest.headless) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try ChildProcess.run(NBridgeTest.executable, arguments, environment: environment, directory: root, timeout: 300)
  }

  /// A result line without its number and without a skip's reason: `ok - name`.
  static func unnumbered(_ line: Substring) -> String? {
    guard let match = line.wholeMatch(of: /(not ok|ok) \d+ - (.*?)( # SKIP .+)?/) else { return nil }
    return match.1 + " - " + match.2
  }

  @Test func tests_jsGivesTheSamePassLinesInThePage() throws {
    // A bound of 30 s a test rather than 5: a page moves the limit tests' 16 MiB texts through
    // WebKit's messages, which a machine running other suites beside it can slow past 5 s.
    let headless = try Self.run(["test", "--test-timeout", "30000", "Tests/js"])
    // Its own TMPDIR, where each file's scratch folder is made: none is left at the end (WebKit's
    // network process wrote a page's storage into a folder removed before it had ended).
    let scratch = try TemporaryDirectory(prefix: "nbridge-pagetest-tmp")
    var environment = NBridgeTest.headless
    environment["TMPDIR"] = scratch.path
    let page = try Self.run(["test", "--page", "--test-timeout", "30000", "Tests/js"], environment: environment)
    #expect(headless.status == 0)
    #expect(page.status == 0, "\(page.stdout)\n\(page.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
    #expect(left.isEmpty, "left in TMPDIR: \(left)")
    let pageLines = page.stdout.split(separator: "\n")
    #expect(!pageLines.contains { $0.hasPrefix("not ok") })
    // Every test headless passes is passed in the page, or skipped there with its reason...
    let pageResults = Set(pageLines.compactMap(Self.unnumbered))
    let moduleFile = try Self.run(["test", "Tests/js/modules.test.mjs"])
    let moduleNames = Set(moduleFile.stdout.split(separator: "\n").compactMap(Self.unnumbered))
    for line in headless.stdout.split(separator: "\n") {
      guard let result = Self.unnumbered(line), !moduleNames.contains(result) else { continue }
      #expect(pageResults.contains(result), "\(line) is missing from the page's run")
    }
    // ... a file a page cannot import says so on one line...
    #expect(
      pageLines.contains { $0.hasSuffix(" - modules.test.mjs # SKIP imports CommonJS named exports and needs the headless loader") })
    // ... and a skip always gives its reason; the page's own tests run there (skipped headless).
    for line in pageLines where line.contains(" # SKIP") {
      #expect(line.wholeMatch(of: /ok \d+ - .+ # SKIP \S.*/) != nil)
    }
    #expect(pageLines.contains { $0.hasSuffix(" - a click reaches its listener, and nbridge answers from the page") })
    #expect(
      headless.stdout.contains(
        " - a click reaches its listener, and nbridge answers from the page # SKIP needs a page of the app: nbridge test --page"))
    let pageCount = pageLines.filter { Self.unnumbered($0) != nil }.count
    #expect(pageLines.last == "\(pageCount) passed, 0 failed")
  }

  @Test func pageTestsClickTheSampleAppsButtons() throws {
    let r = try Self.run(["test", "--page", "Tests/js/page/sample-app.test.js"])
    #expect(r.status == 0, "\(r.stdout)\n\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("ok 1 - the page starts: a welcome line from app.appInfo"))
    #expect(lines.contains("ok 2 - preference.set then preference.get: the buttons save and read the theme"))
    #expect(lines.contains("ok 3 - each test of a page gets the page afresh"))
    // The page's console goes to stdout, as headless.
    #expect(lines.contains { $0.wholeMatch(of: /page\.js:\d+:   preference\.set: theme saved/) != nil })
    #expect(lines.last == "3 passed, 0 failed")
  }

  @Test func aFailingPageTestExitsOneWithNotOk() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-pagetest")
    try dir.write(
      "app/index.html",
      """
      <!doctype html><p id="out">none</p>
      <button id="go" onclick="document.querySelector('#out').textContent = 'clicked'">Go</button>
      """)
    try dir.write(
      "tests/click.test.js",
      """
      test('the button writes clicked', { page: 'index.html' }, () => {
        document.querySelector('#go').click();
        assert.equal(document.querySelector('#out').textContent, 'clicked');
      });
      test('the button writes something else', { page: 'index.html' }, () => {
        document.querySelector('#go').click();
        assert.equal(document.querySelector('#out').textContent, 'something else');
      });
      test('a page that is not there fails the test', { page: 'missing.html' }, () => {});
      """)
    let r = try Self.run(["test", "--page", "--app", dir.path + "/app", dir.path + "/tests"])
    #expect(r.status == 1)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("ok 1 - the button writes clicked"))
    #expect(lines.contains("not ok 2 - the button writes something else"))
    #expect(lines.contains("  # AssertionError: expected \"something else\", got \"clicked\""))
    #expect(lines.contains { $0.hasPrefix("  # at \(dir.path)/tests/click.test.js:7:") })
    #expect(lines.contains("not ok 3 - a page that is not there fails the test"))
    #expect(r.stdout.contains("page: \"missing.html\" is not a file of the app's folder"))
    #expect(lines.last == "1 passed, 2 failed")
  }

  @Test func aSyntaxErrorInATestFileIsReported() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-pagetest")
    try dir.write("broken.test.js", "test('never', () => {\n  assert.equal(1, 1;\n});\n")
    try dir.write("fine.test.js", "test('runs after it', () => {});\n")
    let r = try Self.run(["test", "--page", dir.path])
    #expect(r.status == 1)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("not ok 1 - broken.test.js (outside any test)"))
    #expect(lines.contains { $0.hasPrefix("  # SyntaxError: ") })
    #expect(lines.contains("ok 2 - runs after it"))
    #expect(lines.last == "1 passed, 1 failed")
  }

  /// The Xvfb children of `pid` (`/proc/<pid>/task/*/children`, named Xvfb).
  static func xvfbChildren(of pid: Int32) -> [Int32] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    let children = tasks.flatMap { task in
      ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
        .split(separator: " ").compactMap { Int32($0) }
    }
    return children.filter {
      (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8))?.hasPrefix("Xvfb") ?? false
    }
  }

  /// Whether process `pid` exists (a zombie counts).
  static func exists(_ pid: Int32) -> Bool { kill(pid, 0) == 0 || errno == EPERM }

  @Test func noXvfbIsLeftBehindAtTheEndOrOnInterrupt() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-pagetest")
    try dir.write(
      "wait.test.js",
      """
      test('waits for the go file', { page: true }, async () => {
        console.log('waiting');
        await new Promise((resolve) => setTimeout(resolve, 1500));
      });
      """)
    try dir.write("hang.test.js", "test('hangs', () => { console.log('hanging'); return new Promise(() => {}); });\n")
    for (file, interrupt) in [("wait.test.js", false), ("hang.test.js", true)] {
      let child = try ChildProcess(
        NBridgeTest.executable, ["test", "--page", "--test-timeout", "60000", dir.path + "/" + file],
        environment: NBridgeTest.headless, directory: Self.root)
      var xvfb: [Int32] = []
      #expect(waitUntil(timeout: 30) { xvfb = Self.xvfbChildren(of: child.pid); return !xvfb.isEmpty })
      #expect(child.waitForOutput(interrupt ? "hanging" : "waiting", timeout: 60))
      if interrupt { child.signal(SIGINT) }
      let status = child.wait(timeout: 60)
      #expect(status == (interrupt ? 130 : 0), "\(child.stdout)\n\(child.stderr)")
      #expect(xvfb.count == 1)
      for pid in xvfb { #expect(!Self.exists(pid), "Xvfb \(pid) is left behind") }
    }
  }

  @Test func aDisplayThatIsSetIsUsed() throws {
    let server = try XvfbServer()  // 640x480; nbridge's own is 1280x800
    let dir = try TemporaryDirectory(prefix: "nbridge-pagetest")
    try dir.write("screen.test.js", "test('the screen is the given one', { page: true }, () => assert.equal(screen.width, 640));\n")
    let child = try ChildProcess(
      NBridgeTest.executable, ["test", "--page", dir.path], environment: ["DISPLAY": server.display, "WAYLAND_DISPLAY": nil],
      directory: Self.root)
    var started: [Int32] = []
    #expect(
      waitUntil(timeout: 120) {
        started += Self.xvfbChildren(of: child.pid)
        return !child.isRunning
      })
    #expect(child.status == 0, "\(child.stdout)\n\(child.stderr)")
    #expect(child.stdout.hasSuffix("ok 1 - the screen is the given one\n1 passed, 0 failed\n"))
    #expect(started.isEmpty)
  }
}
