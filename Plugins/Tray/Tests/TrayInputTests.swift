import Foundation
import NBridgeTesting
import Testing

/// Bad options to `nbridge.tray`: coded errors naming the field, checked before anything is shown,
/// and the run goes on.
@Suite struct TrayInputTests {
  @Test func badIconsMenusAndTextsAreInvalidParameterNamingTheField() throws {
    let desktop = try TrayDesktop(watcher: false)
    try desktop.folder.write("app/notes.png", "not a picture")
    let app = try desktop.start(
      """
      let deep = [{ id: 'leaf', label: 'Leaf' }];
      for (let i = 0; i < 10000; i++) deep = [{ label: 'Level ' + i, submenu: deep }];
      let nine = [{ id: 'leaf', label: 'Leaf' }];
      for (let i = 0; i < 8; i++) nine = [{ label: 'Level ' + i, submenu: nine }];
      const long = Array.from({ length: 10000 }, (_, i) => ({ id: 'i' + i, label: 'Item ' + i }));
      const attempts = [
        ['create', { icon: 'notes.png' }], ['create', { icon: 'missing.png' }], ['create', { icon: '/dev/zero' }],
        ['create', { icon: 'not an icon' }], ['create', { icon: '' }], ['create', {}],
        ['create', { icon: 'icon.png', menu: long }], ['create', { icon: 'icon.png', menu: deep }],
        ['create', { icon: 'icon.png', menu: nine }], ['create', { icon: 'icon.png', menu: { id: 'a' } }],
        ['create', { icon: 'icon.png', menu: [{ id: 'a', label: 'A' }, { label: 'B', submenu: [{ id: 'a', label: 'C' }] }] }],
        ['create', { icon: 'icon.png', menu: [{ label: 'No id' }] }],
        ['create', { icon: 'icon.png', menu: [{ id: 'x', label: 'X', checked: 'yes' }] }],
        ['create', { icon: 'icon.png', menu: [{ type: 'radio' }] }],
        ['create', { icon: 'icon.png', tooltip: 'x'.repeat(5000) }],
        ['setIcon', { icon: 'icon.png' }], ['remove', {}],
      ];
      (async () => {
        for (const [action, options] of attempts) {
          await nbridge.tray[action](options).then(() => console.log('ok'), (e) => console.log(e.code + ': ' + e.message));
        }
      })();
      """)
    #expect(app.wait(timeout: 30) == 0, "\(app.stderr)")
    let folder = desktop.folder.file("app")
    let lines = app.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let expected = [
      #"invalid_parameter: tray.create: "icon" names \#(folder)/notes.png, which is not an image that can be read"#,
      #"invalid_parameter: tray.create: "icon" cannot be read: cannot open \#(folder)/missing.png: No such file or directory"#,
      #"invalid_parameter: tray.create: "icon" names /dev/zero, which is not a regular file"#,
      #"invalid_parameter: tray.create: "icon" is neither an image path nor an icon name (letters, digits, '-', '_', '.'): "not an icon""#,
      #"invalid_parameter: tray.create: "icon" must be a file path or an icon name"#,
      #"invalid_parameter: tray.create: "icon" is required"#,
      #"invalid_parameter: tray.create: "menu" makes the menu longer than 1000 items in all"#,
      #"invalid_parameter: tray.create: "menu"#,
      #"invalid_parameter: tray.create: "menu[0].submenu[0].submenu[0].submenu[0].submenu[0].submenu[0].submenu[0].submenu[0].submenu" nests submenus deeper than 8 levels"#,
      #"invalid_parameter: tray.create: "menu" must be an array of items"#,
      #"invalid_parameter: tray.create: "menu[1].submenu[0].id" repeats the id "a" of an earlier item"#,
      #"invalid_parameter: tray.create: "menu[0].id" must be a non-empty string"#,
      #"invalid_parameter: tray.create: "menu[0].checked" must be a boolean"#,
      #"invalid_parameter: tray.create: "menu[0].type" must be 'separator' or 'normal'"#,
      #"invalid_parameter: tray.create: "tooltip" must be at most 4096 bytes of UTF-8 (got 5000)"#,
      "not_found: tray.setIcon: no tray icon is shown: call tray.create first",
      "ok",
    ]
    for (index, prefix) in expected.enumerated() {
      #expect(
        lines.count > index && lines[index].hasPrefix(prefix),
        "line \(index): \(lines.count > index ? lines[index] : "missing")")
    }
    #expect(lines.count == expected.count + 1, "\(app.stdout)")
    #expect(
      lines.count > 7 && lines[7].hasSuffix(" nests deeper than 512 levels"),
      "the runtime's own limit, before the tray's")
  }

  @Test func withoutTheTrayPermissionNothingIsShown() throws {
    let desktop = try TrayDesktop(permissions: #"["app"]"#)
    let app = try desktop.start(
      "nbridge.tray.create({ icon: 'icon.png' }).catch((e) => console.log(e.code));")
    #expect(app.wait(timeout: 30) == 0, "\(app.stderr)")
    #expect(app.stdout == "permission_denied\n")
    #expect(desktop.reports("registered").isEmpty)
  }

  @Test func underNbridgeTestWithoutTheDesktopCreateIsUnavailable() throws {
    let desktop = try TrayDesktop()
    let test = try desktop.folder.write(
      "app/tray.test.js",
      """
      test('tray', async () => {
        const error = await nbridge.tray.create({ icon: 'mail-unread' }).catch((e) => e);
        console.log(error.code + ': ' + error.message);
      });
      """)
    let result = try NBridgeTest.command(["test", test], environment: desktop.environment, timeout: 30)
    #expect(
      result.stdout.contains("unavailable: tray.create: nbridge test runs without the desktop"), "\(result.stdout)")
    #expect(desktop.reports("registered").isEmpty)
  }
}
