import Foundation
import NBridgeTesting
import Testing

/// `window.create` opens a second window with its own page and `nbridge`; `closeRequested` keeps
/// a window open when a listener says so (returning false, or calling keepOpen), and lets it close
/// otherwise.
@Suite(.serialized) struct WindowCloseTests {
  @Test func createOpensASecondWindowWhichCloseRequestedKeepsOpenUntilTheListenerLetsItGo() throws {
    let desktop = try WindowDesktop()
    try desktop.write(
      "second.html",
      """
      <!doctype html><title>second</title><script>
      nbridge.app.appInfo().then((info) => console.log('second page has nbridge: ' + info.id));
      </script>
      """)
    let app = try desktop.start(
      script: """
        const closed = [];
        let asks = 0;
        nbridge.window.addListener('closed', (e) => {
          closed.push(e.id);
          console.log('closed ' + JSON.stringify(closed));
        });
        nbridge.window.addListener('closeRequested', (e) => {
          asks++;
          console.log('closeRequested ' + e.id + ' #' + asks);
          if (asks === 1) {
            setTimeout(async () => console.log('after ask 1 ' + JSON.stringify((await nbridge.window.list()).map((w) => w.id))), 0);
            return false;
          }
          if (asks === 2) {
            nbridge.window.keepOpen({ id: e.id }).then((kept) => console.log('kept ' + kept));
          }
        });
        const { id } = await nbridge.window.create({ url: 'second.html', title: 'Second Window', width: 300, height: 200 });
        console.log('list ' + JSON.stringify(await nbridge.window.list()));
        await new Promise((resolve) => nbridge.window.addListener('closed', resolve));
        // Never settles: the app runs on (--exit-after-script) until its last window closes.
        await new Promise(() => {});
        """)
    defer { app.stop() }
    #expect(
      app.waitForOutput("second page has nbridge: dev.nbridge.windowtest", timeout: 60), "\(app.stdout)\n\(app.stderr)")
    #expect(
      app.stdout.contains(
        "list [{\"id\":\"main\",\"url\":\"nbridge://dev.nbridge.windowtest/index.html\",\"title\":\"Window Test\"},"
          + "{\"id\":\"window-1\",\"url\":\"nbridge://dev.nbridge.windowtest/second.html\",\"title\":\"Second Window\"}]"
      ),
      "\(app.stdout)")
    let main = try desktop.window("Window Test")
    let second = try desktop.window("Second Window")
    #expect(main != second)
    let info = try desktop.waitFor(second) { $0.width == 300 && $0.height == 200 }
    #expect(info.width == 300 && info.height == 200, "\(info)")

    // The user closes it (Alt+F4, openbox's Close: WM_DELETE_WINDOW); the listener keeps it open.
    func closeByUser(_ window: String) throws {
      try desktop.tool("xdotool", ["windowactivate", "--sync", window])
      try desktop.tool("xdotool", ["key", "alt+F4"])
    }
    try closeByUser(second)
    #expect(app.waitForOutput("closeRequested window-1 #1", timeout: 20), "\(app.stdout)\n\(app.stderr)")
    #expect(app.waitForOutput("after ask 1 [\"main\",\"window-1\"]", timeout: 20), "\(app.stdout)")
    #expect(try desktop.hasWindow("Second Window"))

    try closeByUser(second)
    #expect(app.waitForOutput("closeRequested window-1 #2", timeout: 20), "\(app.stdout)\n\(app.stderr)")
    #expect(app.waitForOutput("kept true", timeout: 20), "\(app.stdout)")
    #expect(try desktop.hasWindow("Second Window"))

    // The third time the listener says nothing: the window closes.
    try closeByUser(second)
    #expect(app.waitForOutput("closeRequested window-1 #3", timeout: 20), "\(app.stdout)\n\(app.stderr)")
    #expect(app.waitForOutput("closed [\"window-1\"]", timeout: 20), "\(app.stdout)\n\(app.stderr)")
    #expect(try !desktop.hasWindow("Second Window"))

    // The main window too: nothing keeps it, the app ends.
    try closeByUser(main)
    #expect(app.waitForOutput("closeRequested main #4", timeout: 20), "\(app.stdout)\n\(app.stderr)")
    #expect(app.wait(timeout: 30) == 0, "\(app.stdout)\n\(app.stderr)")
  }
}
