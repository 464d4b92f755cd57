import Foundation
import NBridgeTesting
import Testing

/// `nbridge.menu`'s menu bar in a real window under Xvfb and openbox: the user sees it above the
/// page, and chooses its items with the keyboard and the mouse through `xdotool`.
@Suite(.serialized) struct MenuBarTests {
  static let script = """
    nbridge.menu.addListener('menuItem', (e) => console.log('menuItem ' + JSON.stringify(e)));
    await nbridge.menu.setApplicationMenu({ items: [
      { label: '_File', submenu: [
        { id: 'save', label: '_Save', accelerator: 'Ctrl+S' },
        { id: 'wrap', label: '_Wrap lines', checked: false },
        { type: 'separator' },
        { role: 'quit' },
      ] },
      { label: '_Edit', submenu: [{ role: 'selectAll' }, { role: 'copy' }] },
    ] });
    console.log('bar set');
    await new Promise(() => {});
    """

  @Test func theBarShowsAboveThePageAndItsItemsFireByKeyAndByClick() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(script: Self.script)
    defer { app.stop() }
    #expect(app.waitForOutput("bar set", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    let frame = try desktop.box(window)

    // What the user sees, once WebKit has drawn the page: the page below, and across the top a
    // bar that is not the page.
    let page = try desktop.waitForColours(of: window, x: 0, y: frame.height - 40, width: frame.width, height: 30) {
      $0.first == MenuDesktop.pageColour
    }
    #expect(page.first == MenuDesktop.pageColour, "page \(page.prefix(3))")
    let bar = try desktop.colours(of: window, x: 0, y: 0, width: frame.width, height: 20)
    #expect(bar.first != nil && bar.first != MenuDesktop.pageColour, "bar \(bar.prefix(3))")
    #expect(bar.count > 2, "the bar's labels are drawn on it: \(bar.prefix(5))")

    // The accelerator, while the window has the focus.
    try desktop.tool("xdotool", ["key", "ctrl+s"])
    #expect(app.waitForOutput("menuItem {\"id\":\"save\"}", timeout: 10), "\(app.stdout)\n\(app.stderr)")

    // A click on "File" opens its menu under the bar; a click on its first item chooses it.
    try desktop.click(frame.x + 18, frame.y + 12)
    let menu = try #require(try desktop.poppedUpMenu(besides: window), "no menu popped up under File")
    #expect(abs(menu.x - frame.x) < 10 && menu.y >= frame.y + 15 && menu.y < frame.y + 40, "\(menu) \(frame)")
    let before = app.stdout.components(separatedBy: "menuItem {\"id\":\"save\"}").count
    try desktop.click(menu.x + 30, menu.y + 12)
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, app.stdout.components(separatedBy: "menuItem {\"id\":\"save\"}").count == before {
      usleep(50_000)
    }
    #expect(app.stdout.components(separatedBy: "menuItem {\"id\":\"save\"}").count == before + 1, "\(app.stdout)")

    // The check item, by mnemonics (Alt+F, W): its event says it is checked now.
    try desktop.tool("xdotool", ["key", "alt+f"])
    _ = try #require(try desktop.poppedUpMenu(besides: window), "Alt+F opened no menu")
    try desktop.tool("xdotool", ["key", "w"])
    #expect(
      app.waitForOutput("menuItem {\"id\":\"wrap\",\"checked\":true}", timeout: 10), "\(app.stdout)\n\(app.stderr)")

    // The role `quit`, by its key (Ctrl+Q): the app ends.
    try desktop.tool("xdotool", ["key", "ctrl+q"])
    #expect(app.wait(timeout: 30) == 0, "\(app.stdout)\n\(app.stderr)")
  }

  @Test func selectAllThenCopyPutsThePagesTextOnTheClipboard() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(script: Self.script)
    defer { app.stop() }
    #expect(app.waitForOutput("bar set", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    // Edit > Select All, then Edit > Copy, by the roles' mnemonics.
    for letter in ["a", "c"] {
      try desktop.tool("xdotool", ["key", "alt+e"])
      _ = try #require(try desktop.poppedUpMenu(besides: window), "Alt+E opened no menu")
      try desktop.tool("xdotool", ["key", letter])
    }
    var copied = ""
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      let r = try ChildProcess.run(
        "xclip", ["-o", "-selection", "clipboard"], environment: ["DISPLAY": desktop.display], timeout: 10)
      copied = r.stdout
      if copied.contains("glossary word") { break }
      usleep(100_000)
    }
    #expect(copied.trimmingCharacters(in: .whitespacesAndNewlines) == "glossary word", "\(copied)")
  }

  @Test func anEmptyListTakesTheBarAway() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(
      script: """
        await nbridge.menu.setApplicationMenu({ items: [{ id: 'a', label: 'Alpha' }] });
        await nbridge.menu.setApplicationMenu({ items: [] });
        console.log('bar gone');
        await new Promise(() => {});
        """)
    defer { app.stop() }
    #expect(app.waitForOutput("bar gone", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    let frame = try desktop.box(window)
    // Drawn once the window settles: the top rows are the page's again.
    let top = try desktop.waitForColours(of: window, x: 0, y: 0, width: frame.width, height: 10) {
      $0.first == MenuDesktop.pageColour
    }
    #expect(top.first == MenuDesktop.pageColour, "\(top.prefix(3))")
  }

  @Test func theReloadRoleReloadsThePage() throws {
    let desktop = try MenuDesktop()
    try desktop.write(
      "index.html",
      """
      <!doctype html><title>Menu Test</title><p>page</p>
      <script>console.log('page loaded ' + performance.getEntriesByType('navigation')[0].type);</script>

      """)
    let app = try desktop.start(
      script: """
        await nbridge.menu.setApplicationMenu({ items: [{ label: '_View', submenu: [{ role: 'reload' }] }] });
        console.log('bar set');
        await new Promise(() => {});
        """)
    defer { app.stop() }
    #expect(app.waitForOutput("bar set", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    _ = try desktop.activeWindow("Menu Test")
    try desktop.tool("xdotool", ["key", "ctrl+r"])
    #expect(app.waitForOutput("page loaded reload", timeout: 10), "\(app.stdout)\n\(app.stderr)")
  }

  @Test func cutAndPasteActOnTheFocusedField() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(
      script: """
        document.body.insertAdjacentHTML('beforeend', '<input id="field" value="meaning">');
        const field = document.getElementById('field');
        field.addEventListener('input', () => console.log('field now ' + JSON.stringify(field.value)));
        await nbridge.menu.setApplicationMenu({ items: [
          { label: '_Edit', submenu: [{ role: 'cut' }, { role: 'paste' }, { role: 'undo' }] },
        ] });
        field.focus();
        field.select();
        console.log('bar set');
        await new Promise(() => {});
        """)
    defer { app.stop() }
    #expect(app.waitForOutput("bar set", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    let window = try desktop.activeWindow("Menu Test")
    func choose(_ letter: String) throws {
      try desktop.tool("xdotool", ["key", "alt+e"])
      _ = try #require(try desktop.poppedUpMenu(besides: window), "Alt+E opened no menu")
      try desktop.tool("xdotool", ["key", letter])
    }
    try choose("t")  // Cu_t
    #expect(app.waitForOutput("field now \"\"", timeout: 10), "\(app.stdout)\n\(app.stderr)")
    let copied = try ChildProcess.run(
      "xclip", ["-o", "-selection", "clipboard"], environment: ["DISPLAY": desktop.display], timeout: 10)
    #expect(copied.stdout == "meaning", "\(copied.stdout)")
    try choose("p")  // _Paste
    #expect(app.waitForOutput("field now \"meaning\"", timeout: 10), "\(app.stdout)\n\(app.stderr)")
    try choose("u")  // _Undo: the paste is undone
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline, app.stdout.components(separatedBy: "field now \"\"").count < 3 { usleep(50_000) }
    #expect(app.stdout.components(separatedBy: "field now \"\"").count == 3, "\(app.stdout)")
  }
}
