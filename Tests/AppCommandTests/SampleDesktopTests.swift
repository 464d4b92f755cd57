import CLITestSupport
import Foundation
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Testing

/// The sample app (`nbridge app www/`) on a desktop made of real components, each started and
/// stopped by its PID: Xvfb, openbox, a private session bus with the tray tests' stand-in
/// StatusNotifierWatcher, `xclip` holding the clipboard. What is checked is what the user sees:
/// the page's text, the window (`xwininfo`), the tray's menu, the files written.
@Suite(.serialized, .onTestThreads) struct SampleDesktopTests {
  static let root = SampleApp.root
  static let watcher = root + "/Plugins/Tray/Tests/Fixtures/sni-watcher.py"

  /// A display (with openbox unless `windowManager` is false), the sample's data and, with
  /// `bus`, a session bus with a tray watcher; `nbridge app www/` runs there.
  final class Desktop {
    let xvfb: XvfbServer
    let wm: OpenboxWindowManager?
    let dir: TemporaryDirectory
    let bus: SessionBus?
    let tray: ChildProcess?
    var env: [String: String?]

    init(windowManager: Bool = true, bus withBus: Bool = false) throws {
      xvfb = try XvfbServer()
      wm = windowManager ? try OpenboxWindowManager(display: xvfb.display) : nil
      dir = try TemporaryDirectory(prefix: "nbridge-sample-desktop")
      env = try SampleApp.environment(dir)
      env["DISPLAY"] = xvfb.display
      if withBus {
        let bus = try SessionBus()
        env.merge(bus.environment) { $1 }
        let watcher = try ChildProcess("/usr/bin/python3", [SampleDesktopTests.watcher], environment: bus.environment)
        guard watcher.waitForOutput("ready\n", timeout: 20) else {
          watcher.stop()
          throw ChildProcessError.notReady("sni-watcher.py: \(watcher.stderr)")
        }
        self.bus = bus
        tray = watcher
      } else {
        bus = nil
        tray = nil
      }
    }

    deinit {
      tray?.stop()
      wm?.stop()
    }

    /// Starts `nbridge app www/`, with `script` (run in the page once it is ready) when given.
    func start(script: String? = nil, _ extra: [String] = []) throws -> ChildProcess {
      var arguments = ["app", SampleDesktopTests.root + "/www"]
      if let script {
        arguments += ["--script", try dir.write("script.js", "await window.ready;\n" + script)]
      }
      return try NBridgeTest.start(arguments + extra, environment: env)
    }

    @discardableResult
    func tool(_ name: String, _ arguments: [String]) throws -> String {
      try ChildProcess.run(name, arguments, environment: ["DISPLAY": xvfb.display], timeout: 20).stdout
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The sample's window, once it exists.
    func window() throws -> String {
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline {
        if let id = try tool("xdotool", ["search", "--name", "^nbridge Sample$"]).split(separator: "\n").first {
          return String(id)
        }
        usleep(50_000)
      }
      throw ChildProcessError.notReady("no window named nbridge Sample")
    }

    /// Waits (at most 30 s) until the app says, on its control socket, that it is suspended.
    func waitUntilSuspended() -> Bool {
      let socket = dir.file("xdg") + "/nbridge/dev.nbridge.sample.sock"
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline {
        if let reply = try? ControlClient.send(["op": "state"], toSocket: socket, timeout: 5),
          reply.fields["suspended"] == .bool(true)
        {
          return true
        }
        usleep(50_000)
      }
      return false
    }

    /// `xwininfo`'s size and map state of window `id`, once `check` holds for them (at most 20 s).
    func waitFor(_ id: String, _ check: (_ width: Int, _ height: Int, _ viewable: Bool) -> Bool) throws -> String {
      let deadline = Date().addingTimeInterval(20)
      var last = ""
      while Date() < deadline {
        last = try tool("xwininfo", ["-id", id])
        func number(_ label: String) -> Int {
          last.split(separator: "\n").first { $0.contains(label) }
            .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) } ?? -1
        }
        if check(number("Width:"), number("Height:"), last.contains("Map State: IsViewable")) { return last }
        usleep(50_000)
      }
      return last
    }
  }

  /// The page script that logs each text `#copied` is given (`copied: ...`) and returns.
  static let watchCopied = """
    new MutationObserver(() => console.log('copied: ' + document.getElementById('copied').textContent))
      .observe(document.getElementById('copied'), { childList: true, characterData: true, subtree: true });
    return 'watching';
    """

  @Test func theGlossaryButtonsReadAndWriteTheFilesPickedInTheDialog() throws {
    let desktop = try Desktop(windowManager: false)
    desktop.env["NBRIDGE_DIALOG"] = "simulate"
    let files = try TemporaryDirectory(prefix: "nbridge-sample-files")
    let glossary = try files.write(
      "words.txt",
      "# Words of the kernel\n\nkernel: The core of an operating system.\nRetina: A layer at the back of the eye.\n")
    let export = files.file("exported.txt")
    let app = try desktop.start(
      script: """
        const $ = (id) => document.getElementById(id);
        const click = (label) => [...document.querySelectorAll('#files button')].find((b) => b.textContent === label).click();
        const until = async (check) => {
          for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
        };
        const logged = (text) => () => $('log').textContent.includes(text);
        await nbridge.dialog.simulate({ answers: [null, \(try Self.jsString(glossary)), \(try Self.jsString(export))] });
        const before = $('glossary').textContent;
        click('Open a glossary file...');
        await until(logged('dialog.open: "cancelled"'));
        const unchanged = before === $('glossary').textContent ? 'yes' : 'no';
        click('Open a glossary file...');
        await until(logged('fs.readTextFile'));
        click('Export...');
        await until(logged('fs.writeTextFile'));
        const entries = [...$('glossary').querySelectorAll('dt')].map((dt) => dt.textContent + ' = ' + dt.nextSibling.textContent);
        return { unchanged, entries, log: $('log').textContent };
        """, ["--exit-after-script"])
    defer { app.stop() }
    #expect(app.wait(timeout: 60) == 0, "\(app.stdout)\(app.stderr)")
    let line = app.stdout.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
    let result = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    #expect(result["unchanged"] as? String == "yes", "cancelling changed nothing: \(app.stdout)")
    let entries = result["entries"] as? [String] ?? []
    #expect(entries.contains("kernel = The core of an operating system."), "\(entries)")
    #expect(entries.contains("retina = A layer at the back of the eye."), "the file's meaning replaces it: \(entries)")
    #expect(entries.contains("webview = A view that renders web content inside a native app."), "\(entries)")
    let log = result["log"] as? String ?? ""
    #expect(log.contains("fs.readTextFile: \"2 words from \(glossary)\""), "\(log)")
    #expect(log.contains("fs.writeTextFile: \"5 words to \(export)\""), "\(log)")
    let written = try String(contentsOfFile: export, encoding: .utf8)
    #expect(
      written == """
        bridge: The layer that lets JavaScript call native code and get answers back.
        kernel: The core of an operating system.
        promise: An object standing for a result that will arrive later.
        retina: A layer at the back of the eye.
        webview: A view that renders web content inside a native app.

        """)
  }

  @Test func aResizedSampleWindowComesBackAtThatSize() throws {
    let desktop = try Desktop()
    let first = try desktop.start()
    defer { first.stop() }
    let window = try desktop.window()
    try desktop.tool("xdotool", ["windowsize", window, "560", "380"])
    let resized = try desktop.waitFor(window) { width, height, _ in width == 560 && height == 380 }
    #expect(resized.contains("Width: 560") && resized.contains("Height: 380"), "\(resized)")
    // The user closes it (Alt+F4): without a tray icon, the app ends.
    try desktop.tool("xdotool", ["windowactivate", "--sync", window])
    try desktop.tool("xdotool", ["key", "alt+F4"])
    #expect(first.wait(timeout: 30) == 0, "\(first.stdout)\(first.stderr)")

    let second = try desktop.start(script: "return nbridge.window.getState();", ["--exit-after-script"])
    defer { second.stop() }
    #expect(second.wait(timeout: 60) == 0, "\(second.stdout)\(second.stderr)")
    let line = second.stdout.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
    let state = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    #expect(state["width"] as? Int == 560 && state["height"] as? Int == 380, "\(second.stdout)")
  }

  /// The dbusmenu ids of the sample's tray menu, in reading order (0 is the root).
  enum Item: Int {
    case show = 1
    case lastWord, separator, quit
  }

  @Test func theTrayIconAndTheShortcutReachTheSampleFromTheDesktop() throws {
    let desktop = try Desktop(bus: true)
    let bus = try #require(desktop.bus)
    // Another program holds a word on the clipboard (xclip in the foreground, stopped by its PID).
    let word = try desktop.dir.write("word.txt", "Bridge")
    let clipboard = try ChildProcess(
      "xclip", ["-quiet", "-selection", "clipboard", "-i", word], environment: ["DISPLAY": desktop.xvfb.display])
    defer { clipboard.stop() }
    let deadline = Date().addingTimeInterval(20)
    while try desktop.tool("xclip", ["-selection", "clipboard", "-o"]) != "Bridge" && Date() < deadline {
      usleep(20_000)
    }

    let app = try desktop.start(script: Self.watchCopied)
    defer { app.stop() }
    #expect(
      app.waitForOutput("shortcut.register: Ctrl+Alt+M shows the meaning", timeout: 60), "\(app.stdout)\(app.stderr)")
    #expect(app.waitForOutput("\"watching\""), "\(app.stdout)\(app.stderr)")

    // The tray: the watcher saw the icon with its three items.
    let watcher = try #require(desktop.tray)
    func registration() -> [String: Any]? {
      watcher.stdout.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }.first { $0["registered"] != nil }
    }
    let until = Date().addingTimeInterval(20)
    while registration() == nil && Date() < until { usleep(20_000) }
    let report = try #require(registration(), "\(watcher.stdout)\(app.stderr)")
    let item = try #require(report["registered"] as? String)
    let top = (report["menu"] as? [String: Any])?["children"] as? [[String: Any]] ?? []
    #expect(
      top.map { ($0["props"] as? [String: Any])?["label"] as? String ?? "-" } == ["Show", "Last word", "-", "Quit"],
      "\(report)")
    #expect(
      ((report["props"] as? [String: Any])?["ToolTip"] as? [Any])?[2] as? String
        == "nbridge Sample: copy a word, get its meaning")

    // The shortcut, pressed while the window has no focus: the page shows the copied word's meaning.
    let window = try desktop.window()
    try desktop.tool("xdotool", ["key", "ctrl+alt+m"])
    let meaning = "Bridge: The layer that lets JavaScript call native code and get answers back."
    #expect(app.waitForOutput("copied: Ctrl+Alt+M · \(meaning)", timeout: 20), "\(app.stdout)\(app.stderr)")
    let png = desktop.dir.file("sample-desktop.png")
    let shot = try ChildProcess.run(
      "sh", ["-c", "xwd -root -silent | convert xwd:- \"$0\"", png], environment: ["DISPLAY": desktop.xvfb.display],
      timeout: 30)
    #expect(shot.status == 0, "\(shot.stderr)")
    if let keep = ProcessInfo.processInfo.environment["NBRIDGE_KEEP_SCREENSHOT"] {
      try? FileManager.default.removeItem(atPath: keep)
      try FileManager.default.copyItem(atPath: png, toPath: keep)
    }

    func event(_ item: Item) throws {
      let result = try ChildProcess.run(
        "gdbus",
        [
          "call", "--session", "--dest", report["registered"] as? String ?? "", "--object-path", "/MenuBar",
          "--method", "com.canonical.dbusmenu.Event", "\(item.rawValue)", "clicked", "<0>", "0",
        ], environment: bus.environment, timeout: 20)
      #expect(result.status == 0, "\(result.stderr)")
    }

    // Closing the window hides it in the tray: the app goes on, in background, and is suspended.
    try desktop.tool("xdotool", ["windowactivate", "--sync", window])
    try desktop.tool("xdotool", ["key", "alt+F4"])
    let hidden = try desktop.waitFor(window) { _, _, viewable in !viewable }
    #expect(hidden.contains("IsUnMapped"), "\(hidden)")
    #expect(desktop.waitUntilSuspended(), "\(app.stdout)\(app.stderr)")
    // The shortcut again: the press wakes the app, which shows the meaning once more.
    try desktop.tool("xdotool", ["key", "ctrl+alt+m"])
    let again = Date().addingTimeInterval(20)
    let line = "copied: Ctrl+Alt+M · \(meaning)\n"
    while app.stdout.components(separatedBy: line).count < 3 && Date() < again { usleep(20_000) }
    #expect(app.stdout.components(separatedBy: line).count == 3, "\(app.stdout)\(app.stderr)")

    // Suspended again, "Show" maps the window (the click wakes the app); "Last word" shows the
    // last meaning; "Quit" ends the app.
    #expect(desktop.waitUntilSuspended(), "\(app.stdout)\(app.stderr)")
    try event(.show)
    let shown = try desktop.waitFor(window) { _, _, viewable in viewable }
    #expect(shown.contains("IsViewable"), "\(shown)\(app.stdout)\(app.stderr)")
    try event(.lastWord)
    #expect(app.waitForOutput("copied: Last word · \(meaning)", timeout: 20), "\(app.stdout)\(app.stderr)")
    try event(.quit)
    #expect(app.wait(timeout: 30) == 0, "\(app.stdout)\(app.stderr)")
    #expect(!bus.hasOwner(item), "the icon left the tray with the app")
  }

  /// Headless (`nbridge run www/index.js -- --watch`, no display) the tray works: its items
  /// answer in the terminal, "Quit" ends the run; the shortcut is missing and the sample says why.
  @Test func theHeadlessSampleHasATrayIconToo() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-sample-tray")
    let bus = try SessionBus()
    let watcher = try ChildProcess("/usr/bin/python3", [Self.watcher], environment: bus.environment)
    defer { watcher.stop() }
    #expect(watcher.waitForOutput("ready\n", timeout: 20), "\(watcher.stderr)")
    let env = try SampleApp.environment(dir).merging(bus.environment) { $1 }
    let app = try NBridgeTest.start(["run", Self.root + "/www/index.js", "--", "--watch"], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("Watching the clipboard.", timeout: 30), "\(app.stdout)\(app.stderr)")
    #expect(app.stdout.contains("\n  tray.create: Show, Last word, Quit\n"), "\(app.stdout)")
    #expect(
      app.stdout.contains("\n  shortcut.register: no Ctrl+Alt+M (unavailable: shortcut.register: no display"),
      "\(app.stdout)")
    let until = Date().addingTimeInterval(20)
    while !watcher.stdout.contains("\"registered\"") && Date() < until { usleep(20_000) }
    let report = watcher.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }.first { $0["registered"] != nil }
    let item = try #require(report?["registered"] as? String, "\(watcher.stdout)")
    func event(_ item: Item) throws {
      let result = try ChildProcess.run(
        "gdbus",
        [
          "call", "--session", "--dest", report?["registered"] as? String ?? "", "--object-path", "/MenuBar",
          "--method", "com.canonical.dbusmenu.Event", "\(item.rawValue)", "clicked", "<0>", "0",
        ], environment: bus.environment, timeout: 20)
      #expect(result.status == 0, "\(result.stderr)")
    }
    try event(.show)
    #expect(app.waitForOutput("  Show: this run has no window (nbridge app www/ has one).\n"), "\(app.stdout)")
    try event(.lastWord)
    #expect(app.waitForOutput("  No word looked up yet.\n"), "\(app.stdout)")
    try event(.quit)
    #expect(app.wait(timeout: 30) == 0, "\(app.stdout)\(app.stderr)")
    #expect(!bus.hasOwner(item), "the icon left the tray with the app")
  }

  /// A JSON string literal of `text`, for a page script.
  static func jsString(_ text: String) throws -> String {
    String(decoding: try JSONSerialization.data(withJSONObject: [text]), as: UTF8.self).dropFirst().dropLast()
      .description
  }
}
