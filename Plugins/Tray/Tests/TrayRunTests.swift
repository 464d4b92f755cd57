import Foundation
import NBridgeTesting
import Testing

/// `nbridge.tray` in a real `nbridge run`, seen by a stand-in StatusNotifierWatcher on a private
/// session bus: what the desktop reads, and the desktop's clicks coming back to the app's listeners.
@Suite(.serialized)
struct TrayRunTests {
  static let app = """
    const tray = nbridge.tray;
    tray.addListener('click', (e) => console.log('click ' + JSON.stringify(e)));
    tray.addListener('doubleClick', (e) => console.log('doubleClick ' + e.x + ',' + e.y));
    tray.addListener('menuItem', async ({ id }) => {
      console.log('menuItem ' + id);
      if (id === 'tip') await tray.setTooltip({ tooltip: 'Last word: retina' });
      if (id === 'icon') await tray.setIcon({ icon: 'mail-unread' });
      if (id === 'menu') await tray.setMenu({ menu: [{ id: 'quit', label: 'Quit now' }] });
      if (id === 'quit') await tray.remove();
      console.log('handled ' + id);
    });
    tray.create({
      icon: 'icon.png', tooltip: 'Words: copy a word', menu: [
        { id: 'show', label: 'Show' }, { type: 'separator' },
        { label: 'More', submenu: [{ id: 'tip', label: 'Last_word', checked: true }, { id: 'icon', label: 'Icon' },
          { id: 'menu', label: 'Menu', enabled: false }] },
        { id: 'quit', label: 'Quit' },
      ],
    }).then(() => console.log('created'), (e) => console.log(e.code + ': ' + e.message));
    """

  /// The dbusmenu ids the app's menu gets, in reading order (0 is the root).
  enum Item: Int {
    case show = 1
    case separator, more, tip, icon, menu, quit
  }

  @Test func theItemRegistersWithItsIconTooltipTitleAndMenu() throws {
    let desktop = try TrayDesktop()
    let app = try desktop.start(Self.app)
    defer { app.stop() }
    #expect(app.waitForOutput("created\n"), "\(app.stdout)\(app.stderr)")
    let report = try #require(desktop.waitForReport("registered"), "\(app.stderr)")
    let name = try #require(report["registered"] as? String)
    #expect(name.hasPrefix("org.kde.StatusNotifierItem-\(app.pid)-"))
    let props = try #require(report["props"] as? [String: Any])
    #expect(props["Id"] as? String == "org.example.words")
    #expect(props["Title"] as? String == "Words")
    #expect(props["Menu"] as? String == "/MenuBar")
    // The 2x1 PNG's opaque red and half-transparent blue, as ARGB32 in network byte order.
    #expect((props["IconPixmap"] as? [[Any]])?.first.map { "\($0[0]) \($0[1]) \($0[2])" } == "2 1 ffff0000800000ff")
    #expect((props["ToolTip"] as? [Any])?[2] as? String == "Words: copy a word")
    let menu = try #require(report["menu"] as? [String: Any])
    let top = try #require(menu["children"] as? [[String: Any]])
    #expect(top.map { ($0["props"] as? [String: Any])?["label"] as? String ?? "-" } == ["Show", "-", "More", "Quit"])
    #expect((top[1]["props"] as? [String: Any])?["type"] as? String == "separator")
    let more = try #require(top[2]["children"] as? [[String: Any]])
    let tip = try #require(more.first?["props"] as? [String: Any])
    #expect(tip["label"] as? String == "Last__word", "an underscore doubled, so it is not a mnemonic")
    #expect(tip["toggle-type"] as? String == "checkmark")
    #expect(tip["toggle-state"] as? Int == 1)
    #expect((more[2]["props"] as? [String: Any])?["enabled"] as? Bool == false)
  }

  @Test func activateAndTheMenusEventRunTheAppsListeners() throws {
    let desktop = try TrayDesktop()
    let app = try desktop.start(Self.app)
    defer { app.stop() }
    let name = try #require(desktop.waitForReport("registered")?["registered"] as? String, "\(app.stderr)")
    try desktop.call(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem.Activate", ["120", "44"])
    #expect(app.waitForOutput(#"click {"x":120,"y":44,"button":"left"}"#), "\(app.stdout)")
    try desktop.call(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem.Activate", ["120", "44"])
    #expect(app.waitForOutput("doubleClick 120,44\n"), "two clicks in a row are a double click: \(app.stdout)")
    try desktop.call(name, "/StatusNotifierItem", "org.kde.StatusNotifierItem.SecondaryActivate", ["5", "6"])
    #expect(app.waitForOutput(#"click {"x":5,"y":6,"button":"middle"}"#), "\(app.stdout)")

    try desktop.call(
      name, "/MenuBar", "com.canonical.dbusmenu.Event", ["\(Item.show.rawValue)", "clicked", "<0>", "0"])
    #expect(app.waitForOutput("handled show\n"), "\(app.stdout)")
    // A disabled item, a separator and a hover do nothing; the next click is the next line.
    try desktop.call(
      name, "/MenuBar", "com.canonical.dbusmenu.Event", ["\(Item.menu.rawValue)", "clicked", "<0>", "0"])
    try desktop.call(
      name, "/MenuBar", "com.canonical.dbusmenu.Event", ["\(Item.separator.rawValue)", "clicked", "<0>", "0"])
    try desktop.call(name, "/MenuBar", "com.canonical.dbusmenu.Event", ["\(Item.tip.rawValue)", "hovered", "<0>", "0"])
    try desktop.call(name, "/MenuBar", "com.canonical.dbusmenu.Event", ["\(Item.tip.rawValue)", "clicked", "<0>", "0"])
    #expect(app.waitForOutput("handled tip\n"), "\(app.stdout)")
    let menuLines = app.stdout.split(separator: "\n").filter { $0.hasPrefix("menuItem") }
    #expect(menuLines == ["menuItem show", "menuItem tip"])
    // An id the menu does not have is the caller's error, not the app's.
    #expect(
      try desktop.call(name, "/MenuBar", "com.canonical.dbusmenu.Event", ["99", "clicked", "<0>", "0"]).contains(
        "InvalidArgs"))
  }

  @Test func setTooltipSetIconAndSetMenuChangeWhatTheDesktopReads() throws {
    let desktop = try TrayDesktop()
    let app = try desktop.start(Self.app)
    defer { app.stop() }
    let name = try #require(desktop.waitForReport("registered")?["registered"] as? String, "\(app.stderr)")
    let get = ["org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierItem"]
    for (item, property, expected) in [
      (Item.tip, "ToolTip", "'Last word: retina'"), (.icon, "IconName", "'mail-unread'"),
    ] {
      try desktop.call(name, "/MenuBar", "com.canonical.dbusmenu.Event", ["\(item.rawValue)", "clicked", "<0>", "0"])
      #expect(app.waitForOutput("handled \(item)\n"), "\(app.stdout)\(app.stderr)")
      #expect(try desktop.call(name, "/StatusNotifierItem", get[0], [get[1], property]).contains(expected))
    }
    #expect(
      try desktop.call(name, "/StatusNotifierItem", get[0], [get[1], "IconPixmap"]).contains("@a(iiay) []"),
      "a theme icon replaces the pixels")
  }

  @Test func setMenuReplacesTheLayoutAndRemoveTakesTheIconAwayAndEndsTheRun() throws {
    let desktop = try TrayDesktop()
    let app = try desktop.start(
      """
      nbridge.tray.addListener('menuItem', async ({ id }) => {
        if (id === 'swap') await nbridge.tray.setMenu({ menu: [{ id: 'quit', label: 'Quit now' }] });
        if (id === 'quit') await nbridge.tray.remove();
        console.log('handled ' + id);
      });
      nbridge.tray.create({ icon: 'icon.png', menu: [{ id: 'swap', label: 'Swap' }] }).then(() => console.log('created'));
      """)
    defer { app.stop() }
    let name = try #require(desktop.waitForReport("registered")?["registered"] as? String, "\(app.stderr)")
    try desktop.call(name, "/MenuBar", "com.canonical.dbusmenu.Event", ["1", "clicked", "<0>", "0"])
    #expect(app.waitForOutput("handled swap\n"), "\(app.stdout)\(app.stderr)")
    let layout = try desktop.call(name, "/MenuBar", "com.canonical.dbusmenu.GetLayout", ["0", "10", "@as []"])
    #expect(layout.hasPrefix("(uint32 2,") && layout.contains("'Quit now'") && !layout.contains("Swap"), "\(layout)")
    let quit = try desktop.call(name, "/MenuBar", "com.canonical.dbusmenu.Event", ["1", "clicked", "<0>", "0"])
    #expect(quit == "()\n", "the reply goes out before the connection closes: \(quit)")
    #expect(desktop.waitForReport("gone")?["gone"] as? String == name)
    #expect(app.wait(timeout: 20) == 0, "the icon was all that kept the run alive: \(app.stderr)")
    #expect(app.stdout == "created\nhandled swap\nhandled quit\n")
  }

  @Test func aWatcherThatGoesAndComesBackGetsTheItemAgain() throws {
    let desktop = try TrayDesktop()
    let app = try desktop.start(Self.app)
    defer { app.stop() }
    let name = try #require(desktop.waitForReport("registered")?["registered"] as? String, "\(app.stderr)")
    desktop.stopWatcher()
    try desktop.startWatcherProcess()
    let again = try #require(desktop.waitForReport("registered"), "re-registered with the new watcher: \(app.stderr)")
    #expect(again["registered"] as? String == name)
    #expect(((again["props"] as? [String: Any])?["ToolTip"] as? [Any])?[2] as? String == "Words: copy a word")
    #expect(app.isRunning)
  }

  @Test func withoutAWatcherCreateIsUnavailableAndTheAppKeepsRunning() throws {
    let desktop = try TrayDesktop(watcher: false)
    let app = try desktop.start(
      """
      // The timer is set once the call has failed: the run goes on after it (a timer set beside
      // the call raced the bus's answer on a loaded machine).
      nbridge.tray.create({ icon: 'icon.png' }).catch((e) => {
        console.log(e.code + ': ' + e.message);
        setTimeout(() => console.log('still running'), 50);
      });
      """)
    #expect(app.wait(timeout: 20) == 0, "\(app.stderr)")
    #expect(
      app.stdout == """
        unavailable: tray.create: no StatusNotifierWatcher on the session bus: this desktop shows no tray icons \
        (GNOME needs the AppIndicator extension)
        still running

        """)
    #expect(!desktop.bus.hasOwner("org.kde.StatusNotifierItem-\(app.pid)-1"), "the name is not kept")
  }
}
