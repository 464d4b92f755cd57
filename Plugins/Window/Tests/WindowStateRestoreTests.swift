import Foundation
import NBridgeTesting
import Testing

/// The main window's size and position are saved when it closes and restored at the next launch;
/// not when the manifest's `window.rememberState` is false. The manifest's `minWidth`,
/// `minHeight` and `decorations` reach the window manager.
@Suite(.serialized) struct WindowStateRestoreTests {
  @Test func geometryComesBackAtTheNextLaunchUnlessTheManifestTurnsItOff() throws {
    let desktop = try WindowDesktop()
    // First launch: the user's size and place (set here through the API), then the window closes.
    let first = try desktop.start(
      script: """
        const seen = new Set();
        const both = new Promise((resolve) => {
          const note = (what) => { seen.add(what); if (seen.size === 2) resolve(); };
          nbridge.window.addListener('resized', (e) => { if (e.width === 420 && e.height === 260) note('size'); });
          nbridge.window.addListener('moved', (e) => { if (e.x === 50 && e.y === 60) note('place'); });
        });
        await nbridge.window.setSize({ width: 420, height: 260 });
        await nbridge.window.setPosition({ x: 50, y: 60 });
        await both;
        await nbridge.window.close();
        """)
    defer { first.stop() }
    #expect(first.wait(timeout: 60) == 0, "\(first.stdout)\n\(first.stderr)")

    // Second launch: the same data dir, the window where it was.
    let second = try desktop.start(script: "console.log('state ' + JSON.stringify(await nbridge.window.getState()));")
    defer { second.stop() }
    #expect(second.wait(timeout: 60) == 0, "\(second.stdout)\n\(second.stderr)")
    let restored = desktop.json(after: "state", in: second)
    #expect(restored["width"] as? Int == 420 && restored["height"] as? Int == 260, "\(restored)")
    #expect(restored["x"] as? Int == 50 && restored["y"] as? Int == 60, "\(restored)")

    // Third launch, the manifest turns it off (and asks for a minimum size and no frame): the
    // manifest's size again, wherever the window manager puts it.
    try desktop.write(
      "nbridge.json",
      """
      {"id": "dev.nbridge.windowtest", "name": "Window Test",
       "window": {"title": "Window Test", "width": 320, "height": 240, "minWidth": 300, "minHeight": 200,
                  "decorations": false, "rememberState": false}}
      """)
    let third = try desktop.start(
      script: """
        console.log('state ' + JSON.stringify(await nbridge.window.getState()));
        await go(0);
        """)
    defer { third.stop() }
    let state = desktop.json(after: "state", in: third)
    #expect(state["width"] as? Int == 320 && state["height"] as? Int == 240, "\(state)")
    #expect(!(state["x"] as? Int == 50 && state["y"] as? Int == 60), "\(state)")
    let window = try desktop.window("Window Test")
    let info = try desktop.info(window)
    #expect(info.width == 320 && info.height == 240, "\(info)")
    // No frame: the client is where the frame would start.
    #expect(info.frameX == info.x && info.frameY == info.y, "undecorated: \(info)")
    let hints = try desktop.property(window, "WM_NORMAL_HINTS")
    #expect(hints.contains("program specified minimum size: 300 by 200"), "\(hints)")
    try desktop.go(0)
    #expect(third.wait(timeout: 30) == 0, "\(third.stdout)\n\(third.stderr)")
  }

  @Test func theManifestsWindowFieldsAreChecked() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-window-manifest")
    try "console.log('ran');".write(toFile: dir.file("main.js"), atomically: true, encoding: .utf8)
    let cases: [(String, String)] = [
      (#""minWidth": 50"#, #"field "window.minWidth" must be a whole number of pixels from 100 to 16384"#),
      (
        #""width": 300, "minWidth": 400"#,
        #"field "window.minWidth" (400) must not be larger than "window.width" (300)"#
      ),
      (#""decorations": "no""#, #"field "window.decorations" must be true or false"#),
      (#""rememberState": 1"#, #"field "window.rememberState" must be true or false"#),
      (#""minSize": 1"#, #"unknown field "window.minSize""#),
    ]
    for (fields, message) in cases {
      try #"{"id": "dev.nbridge.windowtest", "window": {\#(fields)}}"#
        .write(toFile: dir.file("nbridge.json"), atomically: true, encoding: .utf8)
      var env = NBridgeTest.headless
      env["NBRIDGE_DATA_DIR"] = dir.file("data")
      let r = try NBridgeTest.command(["run", dir.file("main.js")], environment: env, timeout: 30)
      #expect(r.status == 2, "\(fields): \(r.stdout)")
      #expect(r.stderr.contains(message), "\(fields): \(r.stderr)")
      #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
    }
  }
}
