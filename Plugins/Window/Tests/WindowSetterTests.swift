import Foundation
import NBridgeTesting
import Testing

/// `nbridge.window`'s setters in a real window under Xvfb and openbox: after each one the test
/// reads the window with `xwininfo`, `xdotool` and `xprop`, as a user's tools see it, and then
/// `getState()` must agree.
@Suite(.serialized) struct WindowSetterTests {
  @Test func eachSetterChangesWhatTheWindowManagerShows() throws {
    let desktop = try WindowDesktop()
    let steps = [
      "setTitle({ title: 'Renamed Window' })", "setSize({ width: 400, height: 300 })",
      "setPosition({ x: 30, y: 40 })", "setMinSize({ width: 300, height: 200 })", "center()", "maximize()",
      "unmaximize()", "setFullscreen({ fullscreen: true })", "setFullscreen({ fullscreen: false })",
      "setAlwaysOnTop({ alwaysOnTop: true })", "minimize()", "show()", "hide()", "show()",
    ]
    let app = try desktop.start(
      script: """
        // Minimized or hidden, the app goes to background: a task keeps the script running there.
        await nbridge.background.beginTask({ name: 'window steps' });
        const events = [];
        for (const name of ['resized', 'moved']) nbridge.window.addListener(name, (e) => events.push([name, e]));
        const steps = \(String(data: try JSONSerialization.data(withJSONObject: steps), encoding: .utf8)!);
        for (let i = 0; i < steps.length; i++) {
          await eval('nbridge.window.' + steps[i]);
          console.log('did:' + i + ' ' + steps[i]);
          await go(i);
          console.log('state:' + i + ' ' + JSON.stringify(await nbridge.window.getState()));
        }
        console.log('events ' + JSON.stringify(events));
        """)
    defer { app.stop() }
    let window = try desktop.window("Window Test")
    func state(_ i: Int) throws -> [String: Any] {
      try desktop.go(i)
      return desktop.json(after: "state:\(i)", in: app)
    }
    func did(_ i: Int) -> Bool { app.waitForOutput("did:\(i) ", timeout: 30) }

    #expect(did(0), "\(app.stdout)\n\(app.stderr)")
    #expect(
      try desktop.tool("xdotool", ["getwindowname", window]).trimmingCharacters(in: .newlines) == "Renamed Window")
    _ = try state(0)

    #expect(did(1))
    var info = try desktop.waitFor(window) { $0.width == 400 && $0.height == 300 }
    #expect(info.width == 400 && info.height == 300, "\(info)")
    var s = try state(1)
    #expect(s["width"] as? Int == 400 && s["height"] as? Int == 300, "\(s)")

    #expect(did(2))
    info = try desktop.waitFor(window) { $0.frameX == 30 && $0.frameY == 40 }
    #expect(info.frameX == 30 && info.frameY == 40, "\(info)")
    s = try state(2)
    #expect(s["x"] as? Int == 30 && s["y"] as? Int == 40, "\(s)")

    #expect(did(3))
    let hints = try desktop.waitForProperty(window, "WM_NORMAL_HINTS") { $0.contains("minimum size: 300 by 200") }
    #expect(hints.contains("program specified minimum size: 300 by 200"), "\(hints)")
    _ = try state(3)

    #expect(did(4))
    // Centred: the frame's left and right margins on the 640x480 screen are equal (within a pixel).
    // The frame's width: the client's and the frame's left and right borders.
    func frameWidth(_ info: WindowDesktop.Info) -> Int { info.width + 2 * (info.x - info.frameX) }
    info = try desktop.waitFor(window) { abs($0.frameX - (640 - frameWidth($0)) / 2) <= 1 && $0.frameX != 30 }
    #expect(abs(info.frameX - (640 - frameWidth(info)) / 2) <= 1, "frame width \(frameWidth(info)), \(info)")
    s = try state(4)
    #expect(s["x"] as? Int == info.frameX, "\(s) \(info)")

    #expect(did(5))
    var net = try desktop.waitForProperty(window, "_NET_WM_STATE") { $0.contains("MAXIMIZED_HORZ") }
    #expect(net.contains("_NET_WM_STATE_MAXIMIZED_VERT") && net.contains("_NET_WM_STATE_MAXIMIZED_HORZ"), "\(net)")
    info = try desktop.waitFor(window) { $0.width > 600 }
    #expect(info.width > 600, "maximized on a 640-pixel screen: \(info)")
    s = try state(5)
    #expect(s["maximized"] as? Bool == true, "\(s)")

    #expect(did(6))
    net = try desktop.waitForProperty(window, "_NET_WM_STATE") { !$0.contains("MAXIMIZED") }
    #expect(!net.contains("MAXIMIZED"), "\(net)")
    info = try desktop.waitFor(window) { $0.width == 400 }
    #expect(info.width == 400 && info.height == 300, "\(info)")
    s = try state(6)
    #expect(s["maximized"] as? Bool == false, "\(s)")

    #expect(did(7))
    net = try desktop.waitForProperty(window, "_NET_WM_STATE") { $0.contains("FULLSCREEN") }
    #expect(net.contains("_NET_WM_STATE_FULLSCREEN"), "\(net)")
    info = try desktop.waitFor(window) { $0.width == 640 && $0.height == 480 }
    #expect(info.width == 640 && info.height == 480 && info.x == 0 && info.y == 0, "\(info)")
    s = try state(7)
    #expect(s["fullscreen"] as? Bool == true, "\(s)")

    #expect(did(8))
    net = try desktop.waitForProperty(window, "_NET_WM_STATE") { !$0.contains("FULLSCREEN") }
    #expect(!net.contains("FULLSCREEN"), "\(net)")
    s = try state(8)
    #expect(s["fullscreen"] as? Bool == false, "\(s)")

    #expect(did(9))
    net = try desktop.waitForProperty(window, "_NET_WM_STATE") { $0.contains("ABOVE") }
    #expect(net.contains("_NET_WM_STATE_ABOVE"), "\(net)")
    _ = try state(9)

    #expect(did(10))
    net = try desktop.waitForProperty(window, "_NET_WM_STATE") { $0.contains("HIDDEN") }
    #expect(net.contains("_NET_WM_STATE_HIDDEN"), "minimized: \(net)")
    info = try desktop.waitFor(window) { !$0.viewable }
    #expect(!info.viewable, "\(info)")
    s = try state(10)
    #expect(s["visible"] as? Bool == false, "\(s)")

    #expect(did(11))
    info = try desktop.waitFor(window) { $0.viewable }
    #expect(info.viewable, "\(info)")
    s = try state(11)
    #expect(s["visible"] as? Bool == true, "\(s)")

    #expect(did(12))
    info = try desktop.waitFor(window) { !$0.viewable }
    #expect(!info.viewable, "hidden: \(info)")
    // Withdrawn: WM_STATE says so, or is gone (ICCCM lets the window manager remove it).
    let wmState = try desktop.waitForProperty(window, "WM_STATE") { !$0.contains("Normal") && !$0.contains("Iconic") }
    #expect(!wmState.contains("Normal") && !wmState.contains("Iconic"), "\(wmState)")
    s = try state(12)
    #expect(s["visible"] as? Bool == false, "\(s)")

    #expect(did(13))
    info = try desktop.waitFor(window) { $0.viewable }
    #expect(info.viewable, "shown again: \(info)")
    _ = try state(13)

    #expect(app.wait(timeout: 30) == 0, "\(app.stdout)\n\(app.stderr)")
    let line = app.stdout.split(separator: "\n").first { $0.contains("events [") }.map(String.init) ?? ""
    #expect(line.contains("[\"resized\",{\"id\":\"main\",\"width\":400,\"height\":300}]"), "\(line)")
    #expect(line.contains("[\"moved\",{\"id\":\"main\",\"x\":30,\"y\":40}]"), "\(line)")
  }

  @Test func badOptionsAreCodedErrorsNamingTheField() throws {
    let desktop = try WindowDesktop()
    let app = try desktop.start(
      script: """
        const codes = {};
        const tries = {
          size: () => nbridge.window.setSize({ width: 50, height: 300 }),
          sizeType: () => nbridge.window.setSize({ width: '400', height: 300 }),
          title: () => nbridge.window.setTitle({ title: 'a\\nb' }),
          position: () => nbridge.window.setPosition({ x: 1e9, y: 0 }),
          unknown: () => nbridge.window.getState({ id: 'window-9' }),
          createScheme: () => nbridge.window.create({ url: 'file:///etc/passwd' }),
          createSize: () => nbridge.window.create({ url: 'index.html', width: 20 }),
        };
        for (const [name, attempt] of Object.entries(tries)) {
          try { await attempt(); codes[name] = 'resolved'; } catch (e) { codes[name] = e.code + ': ' + e.message; }
        }
        console.log('codes ' + JSON.stringify(codes));
        console.log('still ' + JSON.stringify((await nbridge.window.list()).map((w) => w.id)));
        """)
    defer { app.stop() }
    #expect(app.wait(timeout: 60) == 0, "\(app.stdout)\n\(app.stderr)")
    let codes = desktop.json(after: "codes", in: app)
    #expect(
      codes["size"] as? String
        == "invalid_parameter: window.setSize: \"width\" must be a whole number of pixels from 100 to 16384 (got 50)",
      "\(codes)")
    #expect(
      (codes["sizeType"] as? String)?.hasPrefix("invalid_parameter: window.setSize: \"width\"") == true, "\(codes)")
    #expect(
      codes["title"] as? String == "invalid_parameter: window.setTitle: \"title\" must not contain control characters")
    #expect(
      (codes["position"] as? String)?.hasPrefix("invalid_parameter: window.setPosition: \"x\"") == true, "\(codes)")
    #expect(
      codes["unknown"] as? String == "not_found: window.getState: no open window with id \"window-9\"", "\(codes)")
    #expect(
      (codes["createScheme"] as? String)?.hasPrefix("invalid_parameter: window.create: \"url\"") == true, "\(codes)")
    #expect(
      (codes["createSize"] as? String)?.hasPrefix("invalid_parameter: window.create: \"width\"") == true, "\(codes)")
    #expect(app.stdout.contains("still [\"main\"]"), "\(app.stdout)")
  }

  @Test func aHeadlessRunHasNoWindow() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-window-headless")
    let script = dir.file("main.js")
    try """
    nbridge.window.setTitle({ title: 'x' }).catch((e) => console.log(e.code + ': ' + e.message));
    """.write(toFile: script, atomically: true, encoding: .utf8)
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    let r = try NBridgeTest.command(["run", script], environment: env, timeout: 30)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout.contains(
        "unavailable: window.setTitle: this run has no window (nbridge app has one; nbridge run and nbridge test do not)"
      ),
      "\(r.stdout)")
  }
}
