import Foundation
import NBridgeTesting
import Testing

/// `nbridge.menu.popup`: a context menu over the page, at the pointer or at a point of the page,
/// and the page's own `contextmenu` event.
@Suite(.serialized) struct MenuPopupTests {
  /// The app's own context menu, Define and Speak: the page's `contextmenu` listener asks for it
  /// (and keeps WebKit's away); the script prints `popped up` and each item chosen.
  static let defineOrSpeak = """
    nbridge.menu.addListener('menuItem', (e) => console.log('menuItem ' + JSON.stringify(e)));
    document.addEventListener('contextmenu', (event) => {
      event.preventDefault();
      nbridge.menu.popup({ items: [{ id: 'define', label: 'Define' }, { id: 'speak', label: 'Speak' }] })
        .then(() => console.log('popped up'), (e) => console.log('failed ' + e.code + ': ' + e.message));
    });
    console.log('ready');
    await new Promise(() => {});
    """

  @Test func aContextMenuOpensAtThePointerAndItsItemFires() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(script: Self.defineOrSpeak)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    let frame = try desktop.box(window)
    let (x, y) = (frame.x + 150, frame.y + 120)
    try desktop.click(x, y, button: 3)
    #expect(app.waitForOutput("popped up", timeout: 10), "\(app.stdout)\n\(app.stderr)")
    let menu = try #require(try desktop.poppedUpMenu(besides: window), "no context menu popped up")
    #expect(abs(menu.x - x) <= 4 && abs(menu.y - y) <= 4, "menu at \(menu), pointer at \(x),\(y)")
    try desktop.click(menu.x + 20, menu.y + menu.height * 3 / 4)
    #expect(app.waitForOutput("menuItem {\"id\":\"speak\"}", timeout: 10), "\(app.stdout)\n\(app.stderr)")
  }

  /// On a slow machine the right-click's release comes after the menu is up (the click goes
  /// through the page and back): it ends the click that opened the menu, which stays.
  @Test func aContextMenuStaysUpWhenTheButtonThatOpenedItIsReleasedAfterIt() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(script: Self.defineOrSpeak)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    let frame = try desktop.box(window)
    try desktop.press(frame.x + 150, frame.y + 120, button: 3)
    try #require(app.waitForOutput("popped up", timeout: 10), "\(app.stdout)\n\(app.stderr)")
    try desktop.release(button: 3)
    // Down selects the menu's first item. The app gets its X events in order: once the item shows
    // selected, the release before it was handled, and the menu is still on screen.
    try desktop.tool("xdotool", ["key", "Down"])
    let menu = try #require(try desktop.poppedUpMenu(besides: window), "the release closed the context menu")
    let second = try desktop.colours(of: menu.id, x: 0, y: menu.height / 2, width: menu.width, height: menu.height / 2)
    let first = try desktop.waitForColours(of: menu.id, x: 0, y: 0, width: menu.width, height: menu.height / 2) {
      $0.first != nil && $0.first != second.first
    }
    #expect(
      first.first != nil && first.first != second.first, "first item \(first.prefix(3)), second \(second.prefix(3))")
    try desktop.tool("xdotool", ["key", "Return"])
    #expect(app.waitForOutput("menuItem {\"id\":\"define\"}", timeout: 10), "\(app.stdout)\n\(app.stderr)")
  }

  @Test func aContextMenuIsRefusedWhileAnotherProgramHoldsTheKeyboardAndShownOnceItLetsGo() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(
      script: """
        document.addEventListener('contextmenu', (event) => {
          event.preventDefault();
          nbridge.menu.popup({ items: [{ id: 'speak', label: 'Speak' }] })
            .then(() => console.log('popped up'), (e) => console.log('failed ' + e.code + ': ' + e.message));
        });
        console.log('ready');
        await new Promise(() => {});
        """)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    let frame = try desktop.box(window)
    // Another program grabs the keyboard (as a screen locker or a window manager does) and keeps it.
    let grabber = try ChildProcess(
      "/usr/bin/python3",  // Debian's, with python3-xlib
      [
        "-c",
        """
        import sys, time
        from Xlib import X, display
        d = display.Display()
        status = d.screen().root.grab_keyboard(True, X.GrabModeAsync, X.GrabModeAsync, X.CurrentTime)
        d.sync()
        print('grabbed' if status == X.GrabSuccess else 'grab failed %d' % status, flush=True)
        time.sleep(600)
        """,
      ], environment: ["DISPLAY": desktop.display])
    defer { grabber.stop() }
    #expect(grabber.waitForOutput("grabbed", timeout: 20), "\(grabber.stdout)\(grabber.stderr)")
    try desktop.click(frame.x + 150, frame.y + 120, button: 3)
    #expect(
      app.waitForOutput("failed unavailable: menu.popup: another program holds the pointer or keyboard", timeout: 10),
      "\(app.stdout)\n\(app.stderr)")
    #expect(!app.stdout.contains("popped up"))
    grabber.stop()
    try desktop.click(frame.x + 150, frame.y + 120, button: 3)
    #expect(app.waitForOutput("popped up", timeout: 10), "\(app.stdout)\n\(app.stderr)")
    #expect(try desktop.poppedUpMenu(besides: window) != nil, "no context menu popped up")
  }

  @Test func aContextMenuOpensAtThePagesPoint() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(
      script: """
        nbridge.menu.addListener('menuItem', (e) => console.log('menuItem ' + JSON.stringify(e)));
        await nbridge.menu.popup({ items: [{ id: 'here', label: 'Here' }], x: 60, y: 80 });
        console.log('popped up');
        await new Promise(() => {});
        """)
    defer { app.stop() }
    #expect(app.waitForOutput("popped up", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    let frame = try desktop.box(window)
    let menu = try #require(try desktop.poppedUpMenu(besides: window), "no context menu popped up")
    #expect(abs(menu.x - (frame.x + 60)) <= 4 && abs(menu.y - (frame.y + 80)) <= 4, "menu at \(menu), page \(frame)")
    try desktop.click(menu.x + 20, menu.y + menu.height / 2)
    #expect(app.waitForOutput("menuItem {\"id\":\"here\"}", timeout: 10), "\(app.stdout)\n\(app.stderr)")
  }

  @Test func withoutTheAppsMenuThePagesContextMenuEventStillRuns() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(
      script: """
        document.addEventListener('contextmenu', (event) => console.log('contextmenu ' + event.button));
        console.log('ready');
        await new Promise(() => {});
        """)
    defer { app.stop() }
    #expect(app.waitForOutput("ready", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    let frame = try desktop.box(window)
    try desktop.click(frame.x + 100, frame.y + 100, button: 3)
    #expect(app.waitForOutput("contextmenu 2", timeout: 10), "\(app.stdout)\n\(app.stderr)")
  }

  @Test func aHiddenWindowHasNoContextMenu() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(
      script: """
        await nbridge.window.hide();
        await nbridge.menu.popup({ items: [{ id: 'a', label: 'A' }] })
          .then(() => console.log('resolved'), (e) => console.log('rejected ' + e.code + ': ' + e.message));
        """)
    defer { app.stop() }
    #expect(app.wait(timeout: 60) == 0, "\(app.stdout)\n\(app.stderr)")
    #expect(
      app.stdout.contains(
        "rejected unavailable: menu.popup: the window is not shown (hidden or minimized): a context menu needs it on"
          + " screen"), "\(app.stdout)")
  }
}
