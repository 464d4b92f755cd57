import Foundation
import NBridgeTesting
import Testing

/// Bad menus are coded errors naming the field, and the app keeps running; a headless run has no
/// window for a menu.
@Suite(.serialized) struct MenuInputTests {
  static let tries = """
    const deep = [];
    let level = deep;
    for (let i = 0; i < 10000; i++) { const next = []; level.push({ label: 'L' + i, submenu: next }); level = next; }
    // Submenus `levels` deep (the menu and 7 levels of submenus below it are allowed).
    const nested = (levels) => {
      let items = [{ id: 'x', label: 'x' }];
      for (let i = levels; i > 0; i--) items = [{ label: 'L' + i, submenu: items }];
      return items;
    };
    const long = Array.from({ length: 10000 }, (_, i) => ({ id: 'i' + i, label: 'Item ' + i }));
    const set = (items) => nbridge.menu.setApplicationMenu({ items });
    const tries = {
      deep: () => set(deep),
      nine: () => set(nested(9)),
      long: () => set(long),
      accelerator: () => set([{ id: 'a', label: 'A', accelerator: 'Ctrl+Banana' }]),
      plainKey: () => set([{ id: 'a', label: 'A', accelerator: 'S' }]),
      sameKey: () => set([{ id: 'a', label: 'A', accelerator: 'Ctrl+S' }, { id: 'b', label: 'B', accelerator: 'ctrl+s' }]),
      duplicate: () => set([{ id: 'a', label: 'A' }, { label: 'Sub', submenu: [{ id: 'a', label: 'Again' }] }]),
      missingLabel: () => set([{ id: 'a' }]),
      role: () => set([{ role: 'format' }]),
      unknownField: () => set([{ id: 'a', label: 'A', lable: 'typo' }]),
      popupPoint: () => nbridge.menu.popup({ items: [{ id: 'a', label: 'A' }], x: 10 }),
    };
    const codes = {};
    for (const [name, attempt] of Object.entries(tries)) {
      try { await attempt(); codes[name] = 'resolved'; } catch (e) { codes[name] = e.code + ': ' + e.message; }
    }
    console.log('codes ' + JSON.stringify(codes));
    """

  static func check(_ codes: [String: Any]) {
    func code(_ name: String) -> String { codes[name] as? String ?? "missing" }
    #expect(code("deep").hasPrefix("invalid_parameter: menu.setApplicationMenu: \"items[0].submenu[0]"), "\(codes)")
    #expect(
      code("nine").hasPrefix(
        "invalid_parameter: menu.setApplicationMenu: \"items[0].submenu[0].submenu[0].submenu[0].submenu[0].submenu[0]"
          + ".submenu[0].submenu[0].submenu\" nests submenus deeper than 8 levels"), "\(codes)")
    #expect(
      code("long")
        == "invalid_parameter: menu.setApplicationMenu: \"items\" makes the menu longer than 1000 items in all",
      "\(codes)")
    #expect(
      code("accelerator").hasPrefix(
        "invalid_parameter: menu.setApplicationMenu: \"items[0].accelerator\" has \"Banana\""), "\(codes)")
    #expect(
      code("plainKey").hasPrefix("invalid_parameter: menu.setApplicationMenu: \"items[0].accelerator\""), "\(codes)")
    #expect(
      code("sameKey")
        == "invalid_parameter: menu.setApplicationMenu: \"items[1].accelerator\" is the key of items[0] already",
      "\(codes)")
    #expect(
      code("duplicate")
        == "invalid_parameter: menu.setApplicationMenu: \"items[1].submenu[0].id\" repeats the id \"a\" of an earlier item",
      "\(codes)")
    #expect(
      code("missingLabel")
        == "invalid_parameter: menu.setApplicationMenu: \"items[0].label\" must be a non-empty string",
      "\(codes)")
    #expect(
      code("role").hasPrefix("invalid_parameter: menu.setApplicationMenu: \"items[0].role\" must be one of"), "\(codes)"
    )
    #expect(
      code("unknownField").hasPrefix("invalid_parameter: menu.setApplicationMenu: \"items[0].lable\""), "\(codes)")
    #expect(code("popupPoint").hasPrefix("invalid_parameter: menu.popup: \"y\""), "\(codes)")
  }

  @Test func badMenusAreCodedErrorsAndTheAppKeepsRunning() throws {
    let desktop = try MenuDesktop()
    let app = try desktop.start(
      script: Self.tries + """
        await nbridge.menu.setApplicationMenu({ items: [{ id: 'ok', label: 'Still here' }] });
        console.log('still running');
        """)
    defer { app.stop() }
    #expect(app.wait(timeout: 60) == 0, "\(app.stdout)\n\(app.stderr)")
    Self.check(json(after: "codes", in: app.stdout))
    #expect(app.stdout.contains("still running"), "\(app.stdout)")
  }

  @Test func aHeadlessRunHasNoWindowForAMenu() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-menu-headless")
    let script = dir.file("main.js")
    try
      (Self.tries + """
        for (const [name, call] of [
          ['bar', () => nbridge.menu.setApplicationMenu({ items: [{ id: 'a', label: 'A' }] })],
          ['popup', () => nbridge.menu.popup({ items: [{ id: 'a', label: 'A' }] })],
        ]) {
          await call().then(() => console.log(name + ' resolved'), (e) => console.log(name + ' ' + e.code + ': ' + e.message));
        }
        """).write(toFile: script, atomically: true, encoding: .utf8)
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    let r = try NBridgeTest.command(["run", script], environment: env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    // Bad menus are refused the same way without a window; good ones are unavailable.
    Self.check(json(after: "codes", in: r.stdout))
    #expect(
      r.stdout.contains(
        "bar unavailable: menu.setApplicationMenu: this run has no window for a menu (nbridge app has one;"
          + " nbridge run and nbridge test do not)"), "\(r.stdout)")
    #expect(r.stdout.contains("popup unavailable: menu.popup: this run has no window for a menu"), "\(r.stdout)")
  }
}

/// The JSON after `prefix ` on a line of `output`.
func json(after prefix: String, in output: String) -> [String: Any] {
  let line = output.split(separator: "\n").first { $0.contains(prefix + " ") } ?? ""
  guard let range = line.range(of: prefix + " ") else { return [:] }
  return (try? JSONSerialization.jsonObject(with: Data(line[range.upperBound...].utf8))) as? [String: Any] ?? [:]
}
