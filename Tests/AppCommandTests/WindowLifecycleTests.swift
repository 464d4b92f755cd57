import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `nbridge app` under Xvfb with a real window manager (openbox): minimizing, restoring and
/// focusing another window move the app's state, and the page hears it.
@Suite(.serialized, .onTestThreads) struct WindowLifecycleTests {
  static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/lifecycle-page").path
  static let timersPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/timers-page").path
  static let navigatePage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/navigate-page").path
  static let framesPage = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/frames-page").path

  /// The pages' console lines after `mark`, without the `index.html:N: ` (or other page's) prefix,
  /// and without the clock's beats unless asked for.
  static func lines(_ output: String, after mark: Int = 0, clock: Bool = false) -> [String] {
    output.split(separator: "\n").dropFirst(mark).compactMap { line in
      guard line.split(separator: " ", maxSplits: 1).first?.contains(".html:") == true else { return nil }
      return line.split(separator: " ", maxSplits: 1).last.map(String.init)
    }.filter { clock || !$0.hasPrefix("clock ") }
  }

  /// Waits (20 s at most) until the page's clock, a worker whose timers the app's suspension does
  /// not hold, has beaten `beats` times in a row after the page's line `mark` with no other line of
  /// the page's between: for that long the page's own timers came due and nothing of theirs ran.
  /// Returns the page's lines (without the beats) up to the end of that run, or nil.
  static func quietRun(
    _ app: ChildProcess, beats: Int = 20, after mark: String
  ) -> [String]? {
    var found: [String]?
    _ = waitUntil(timeout: 20) {
      let all = lines(app.stdout, clock: true)
      guard let start = all.lastIndex(of: mark) else { return false }
      var run = 0
      for (i, line) in all.enumerated().dropFirst(start + 1) {
        run = line.hasPrefix("clock ") ? run + 1 : 0
        if run == beats {
          found = all.prefix(i + 1).filter { !$0.hasPrefix("clock ") }
          return true
        }
      }
      return false
    }
    return found
  }

  @Test func minimizeRestoreAndFocusElsewhereMoveTheState() throws {
    let xvfb = try XvfbServer()
    let display = xvfb.display
    let wm = try ChildProcess("openbox", [], environment: ["DISPLAY": display])
    defer { wm.stop() }
    let dir = try TemporaryDirectory(prefix: "nbridge-lifecycle")
    var env = NBridgeTest.headless
    env["DISPLAY"] = display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    let app = try NBridgeTest.start(["app", Self.page], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 60), "\(app.stderr)")
    let window = try X11Windows.window("Lifecycle Page", display: display)
    func waitFor(_ wanted: [String], after mark: Int) -> Bool {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        let seen = Self.lines(app.stdout, after: mark)
        if seen.count >= wanted.count, Array(seen.suffix(wanted.count)) == wanted { return true }
        usleep(50_000)
      }
      return false
    }
    var mark = app.stdout.split(separator: "\n").count

    _ = try X11Windows.xdotool(["windowminimize", window], display: display)
    #expect(waitFor(["state background false", "pause", "callPauseListener"], after: mark), "\(app.stdout)")
    mark = app.stdout.split(separator: "\n").count

    _ = try X11Windows.xdotool(["windowactivate", window], display: display)
    #expect(waitFor(["state active true"], after: mark), "\(app.stdout)")
    let restored = Self.lines(app.stdout, after: mark)
    #expect(Array(restored.prefix(2)) == ["resume", "callResumeListener"], "\(restored)")
    mark = app.stdout.split(separator: "\n").count

    // Another window takes the focus: the app is shown but not focused.
    let other = try ChildProcess("xmessage", ["-name", "other", "other window"], environment: ["DISPLAY": display])
    defer { other.stop() }
    let otherWindow = try X11Windows.window("^other$", display: display)
    _ = try X11Windows.xdotool(["windowactivate", otherWindow], display: display)
    #expect(waitFor(["state inactive false"], after: mark), "\(app.stdout)")
    mark = app.stdout.split(separator: "\n").count

    _ = try X11Windows.xdotool(["windowactivate", window], display: display)
    #expect(waitFor(["state active true"], after: mark), "\(app.stdout)")
    #expect(!Self.lines(app.stdout, after: mark).contains("pause"))
  }

  /// The page's own timers freeze while the app is suspended: the interval's count stops, and
  /// what came due runs after `resume` and `stateChange`, in order, once each.
  @Test func aSuspendedPageHoldsItsTimersUntilResume() throws {
    let xvfb = try XvfbServer()
    let display = xvfb.display
    let wm = try ChildProcess("openbox", [], environment: ["DISPLAY": display])
    defer { wm.stop() }
    let dir = try TemporaryDirectory(prefix: "nbridge-timers")
    var env = NBridgeTest.headless
    env["DISPLAY"] = display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    let app = try NBridgeTest.start(["app", Self.timersPage], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 60), "\(app.stderr)")
    #expect(app.waitForOutput("tick 3", timeout: 20), "\(app.stdout)")
    let window = try X11Windows.window("Timers Page", display: display)
    func ticks() -> Int { Self.lines(app.stdout).filter { $0.hasPrefix("tick ") }.count }

    _ = try X11Windows.xdotool(["windowminimize", window], display: display)
    #expect(app.waitForOutput("pause", timeout: 20), "\(app.stdout)")
    // Two seconds of the clock with none of the page's lines: its interval and the pause
    // listener's timeouts came due meanwhile, and were held.
    let whileSuspended = Self.quietRun(app, after: "pause")
    #expect(whileSuspended != nil, "the page's timers ran while the app was suspended: \(Self.lines(app.stdout, clock: true))")
    let frozen = ticks()

    _ = try X11Windows.xdotool(["windowactivate", window], display: display)
    #expect(app.waitForOutput("timeout second", timeout: 20), "\(app.stdout)")
    #expect(app.waitForOutput("tick \(frozen + 3)", timeout: 20), "the interval did not go on: \(app.stdout)")
    let after = Array(Self.lines(app.stdout).dropFirst(whileSuspended?.count ?? 0))
    // resume, stateChange, then the held callbacks in the order they came due: the interval
    // once (it does not catch up), the two timeouts; the one cleared by a resume listener never.
    #expect(after.first == "resume" && after.dropFirst().first?.hasPrefix("state ") == true, "\(after)")
    #expect(Array(after.dropFirst(2).prefix(3)) == ["tick \(frozen + 1)", "timeout first", "timeout second"], "\(after)")
    #expect(!after.contains("timeout cancelled"))
  }

  /// A document that loads while the app is suspended (here: the first one's `pause` listener
  /// navigates) starts with its timers frozen, and runs them at resume.
  @Test func aDocumentLoadedWhileSuspendedStartsFrozen() throws {
    let xvfb = try XvfbServer()
    let dir = try TemporaryDirectory(prefix: "nbridge-navigate")
    var env = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(
      atPath: runtimeDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    env["XDG_RUNTIME_DIR"] = runtimeDir
    let app = try NBridgeTest.start(["app", Self.navigatePage], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 60), "\(app.stderr)")

    let background = try NBridgeTest.command(["simulate", "background", Self.navigatePage], environment: env)
    #expect(background.stdout == "background (suspended)\n", "\(background.stderr)")
    #expect(app.waitForOutput("next loaded", timeout: 20), "\(app.stdout)")
    // The new document's interval and timeout came due during two seconds of the clock, and
    // neither ran.
    let quiet = Self.quietRun(app, after: "next loaded")
    #expect(quiet != nil, "the page ran while the app was suspended: \(Self.lines(app.stdout, clock: true))")
    let whileSuspended = quiet ?? Self.lines(app.stdout)
    #expect(!whileSuspended.contains { $0.hasPrefix("tick") || $0 == "timeout" }, "\(whileSuspended)")

    let foreground = try NBridgeTest.command(["simulate", "foreground", Self.navigatePage], environment: env)
    #expect(foreground.stdout == "active\n", "\(foreground.stderr)")
    #expect(app.waitForOutput("tick 3", timeout: 20), "\(app.stdout)")
    let after = Array(Self.lines(app.stdout).dropFirst(whileSuspended.count))
    #expect(Array(after.prefix(3)) == ["resume", "timeout", "tick 1"], "\(after)")
  }

  /// The app's own frames freeze with its page: one that was there, and one added while the app
  /// is suspended; at resume both go on. So does the page's animation loop.
  @Test func theAppsFramesFreezeWithThePage() throws {
    let xvfb = try XvfbServer()
    let dir = try TemporaryDirectory(prefix: "nbridge-frames")
    var env = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(
      atPath: runtimeDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    env["XDG_RUNTIME_DIR"] = runtimeDir
    let app = try NBridgeTest.start(["app", Self.framesPage], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 60), "\(app.stderr)")
    #expect(app.waitForOutput("early tick 2", timeout: 20), "\(app.stdout)")
    #expect(app.waitForOutput("frame 20", timeout: 20), "no animation frames: \(app.stdout)")

    let background = try NBridgeTest.command(["simulate", "background", Self.framesPage], environment: env)
    #expect(background.stdout == "background (suspended)\n", "\(background.stderr)")
    #expect(app.waitForOutput("late loaded", timeout: 20), "\(app.stdout)")
    // Both frames' intervals and the animation loop came due during two seconds of the clock,
    // and none of them ran.
    let quiet = Self.quietRun(app, after: "late loaded")
    #expect(quiet != nil, "the page ran while the app was suspended: \(Self.lines(app.stdout, clock: true))")
    let frozen = quiet ?? Self.lines(app.stdout)
    #expect(!frozen.contains { $0.hasPrefix("late tick") }, "\(frozen)")

    let foreground = try NBridgeTest.command(["simulate", "foreground", Self.framesPage], environment: env)
    #expect(foreground.stdout == "active\n", "\(foreground.stderr)")
    #expect(app.waitForOutput("late tick 3", timeout: 20), "\(app.stdout)")
    let after = Array(Self.lines(app.stdout).dropFirst(frozen.count))
    #expect(after.first == "resume", "\(after)")
    let earlyBefore = frozen.filter { $0.hasPrefix("early tick") }.count
    #expect(after.contains("early tick \(earlyBefore + 1)") && after.contains("late tick 1"), "\(after)")
    // The animation loop was held too (its window stayed visible: WebKit kept drawing), and goes on.
    let lastFrame = frozen.compactMap { $0.hasPrefix("frame ") ? Int($0.dropFirst(6)) : nil }.max() ?? 0
    #expect(app.waitForOutput("frame \(lastFrame + 20)\n", timeout: 20), "\(after)")
  }
}
