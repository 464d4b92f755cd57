import NBridgeBuiltins
import NBridgePlugin
import NBridgeTesting
import Testing

/// The built-in plugins' declared shapes agree with what their code does: each action's options
/// shape with what its `Decodable` reads, and each result with what a sample call returns.
@Suite struct ShapeDriftTests {
  /// Every built-in action as `service.action`, with its declared and its recorded options shape.
  static var actions: [(name: String, declared: Shape, decoded: Shape, result: Shape)] {
    func list<P: Plugin>(_ type: P.Type) -> [(String, Shape, Shape, Shape)] {
      P.definition.actions.map { ("\(P.definition.service).\($0.name)", $0.options, $0.decodedOptions, $0.result) }
    }
    return Builtins.plugins.flatMap { list($0) }.map { (name: $0.0, declared: $0.1, decoded: $0.2, result: $0.3) }
  }

  @Test func everyOptionsShapeIsWhatItsDecodableReads() {
    for action in Self.actions {
      let problems = ShapeCheck.options(declared: action.declared, decoded: action.decoded, at: "options")
      #expect(
        problems.isEmpty,
        "\(action.name) declares \(action.declared.typeScript), its Decodable reads \(action.decoded.typeScript): \(problems.joined(separator: "; "))"
      )
    }
  }

  /// A page sends a typed array in options as Base64 only where the action declared the field
  /// as bytes (a start never records shapes): every options field a Decodable reads as `Bytes`
  /// is declared.
  @Test func everyBytesFieldOfOptionsIsDeclared() {
    func list<P: Plugin>(_ type: P.Type) -> [(String, Bool, Shape)] {
      P.definition.actions.map { ("\(P.definition.service).\($0.name)", $0.declaresOptions, $0.decodedOptions) }
    }
    for (name, declared, decoded) in Builtins.plugins.flatMap({ list($0) }) {
      guard case .object(let fields) = decoded, fields.contains(where: { $0.shape == .bytes || $0.shape == .bytes.orNull })
      else { continue }
      #expect(declared, "\(name) reads Bytes in its options but does not declare them: a page's typed array would not reach it")
    }
  }

  /// A sample call of every built-in action, in an order where each finds what it needs.
  /// `app.exit` ends the run, so its result (declared `void`) is never seen; `background.completeFetch`
  /// needs a fetch in flight (its `true`/`false` is checked by the CLI's fetch tests);
  /// `app.canOpenURL` and `app.openURL` run this program's `open` command, which a test process
  /// does not have (their results are checked through the real binary by the URL tests);
  /// `app.openBrowser`, `app.goSettings` and `app.share` start desktop programs and
  /// `app.screenshot`, `app.openWindow` and `app.closeWindow` need a window (checked by the CLI's desktop and
  /// window tests);
  /// `autostart.enable` needs a run started from an app's files (checked by AutostartRunTests);
  /// every `window` action needs a window (checked by NBridgeWindowServiceTests under Xvfb);
  /// `tray.create`, `setIcon`, `setTooltip` and `setMenu` need a StatusNotifierWatcher on a session bus
  /// (checked by TrayRunTests); `shortcut.register` needs an X display (checked by ShortcutRunTests);
  /// every `menu` action needs a window (checked by NBridgeMenuTests under Xvfb).
  static let samples: [(String, String)] = [
    ("app.appInfo", "{}"), ("app.deviceInfo", "{}"), ("app.getState", "{}"), ("app.getLaunchUrl", "{}"),
    ("app.clearCache", "{}"),
    ("storage.set", "{ key: 'k', value: { a: [1, 'two'] } }"), ("storage.get", "{ key: 'k' }"),
    ("storage.keys", "{}"), ("storage.remove", "{ key: 'k' }"), ("storage.clear", "{}"),
    ("preference.set", "{ key: 'p', value: 3 }"), ("preference.get", "{ key: 'p' }"),
    ("preference.remove", "{ key: 'p' }"),
    ("pasteboard.setString", "{ string: 'hi' }"), ("pasteboard.getString", "{}"), ("pasteboard.hasString", "{}"),
    ("pasteboard.changeCount", "{}"), ("pasteboard.clear", "{}"), ("pasteboard.create", "{ name: 'drift' }"),
    ("pasteboard.remove", "{ name: 'drift' }"),
    ("notification.show", "{ title: 'T', body: 'B', data: { n: 1 } }"),
    ("notification.schedule", "{ id: 'later', title: 'T', body: 'B', after: 600000, every: 600000 }"),
    ("notification.getPending", "{}"), ("notification.getDelivered", "{}"), ("notification.cancel", "{ id: 'later' }"),
    ("notification.checkPermission", "{}"), ("notification.requestPermission", "{}"),
    ("background.beginTask", "{ name: 'drift' }"), ("background.timeRemaining", "{}"),
    ("background.endTask", "{ id: 1 }"), ("background.setMinimumFetchInterval", "{ interval: 'minimum' }"),
    ("background.getFetchStatus", "{}"), ("autostart.isEnabled", "{}"), ("autostart.disable", "{}"),
    ("tray.remove", "{}"), ("shortcut.isRegistered", "{ accelerator: 'Ctrl+Alt+K' }"),
    ("shortcut.unregister", "{ accelerator: 'Ctrl+Alt+K' }"),
    ("location.simulate", "{ latitude: 37.5665, longitude: 126.978 }"), ("location.available", "{}"),
    ("location.current", "{ timeout: 5000 }"),
    ("location.watch", "{ retainCallback: () => nbridge.location.clearWatch() }"), ("location.clearWatch", "{}"),
    ("fs.paths", "{}"), ("fs.writeTextFile", "{ path: (await nbridge.fs.paths()).data + '/d.txt', contents: 'drift' }"),
    ("fs.appendFile", "{ path: (await nbridge.fs.paths()).data + '/d.txt', contents: '!' }"),
    ("fs.readTextFile", "{ path: (await nbridge.fs.paths()).data + '/d.txt' }"),
    ("fs.writeFile", "{ path: (await nbridge.fs.paths()).data + '/d.bin', data: new Uint8Array([1, 2]) }"),
    ("fs.readFile", "{ path: (await nbridge.fs.paths()).data + '/d.bin' }"),
    ("fs.exists", "{ path: (await nbridge.fs.paths()).data + '/d.txt' }"),
    ("fs.stat", "{ path: (await nbridge.fs.paths()).data + '/d.txt' }"),
    ("fs.mkdir", "{ path: (await nbridge.fs.paths()).data + '/a/b', recursive: true }"),
    ("fs.readDir", "{ path: (await nbridge.fs.paths()).data }"),
    ("fs.copyFile", "{ from: (await nbridge.fs.paths()).data + '/d.txt', to: (await nbridge.fs.paths()).data + '/e.txt' }"),
    ("fs.rename", "{ from: (await nbridge.fs.paths()).data + '/e.txt', to: (await nbridge.fs.paths()).data + '/f.txt' }"),
    ("fs.remove", "{ path: (await nbridge.fs.paths()).data + '/a', recursive: true }"),
    ("fs.watch", "{ path: (await nbridge.fs.paths()).data, retainCallback: (setTimeout(() => nbridge.fs.unwatch({})), () => {}) }"),
    ("fs.unwatch", "{}"), ("fs.simulatePick", "{ path: '/etc/hostname' }"), ("fs.forget", "{}"),
    ("dialog.simulate", "{ answers: ['/a', null, 'OK', true] }"), ("dialog.open", "{}"), ("dialog.save", "{}"),
    ("dialog.message", "{ message: 'm' }"), ("dialog.confirm", "{ message: 'q' }"),
  ]

  @Test func everyActionHasASampleCall() {
    let sampled = Set(
      Self.samples.map(\.0) + ["app.exit", "background.completeFetch", "app.canOpenURL", "app.openURL"]
        + ["app.openBrowser", "app.goSettings", "app.share", "app.screenshot", "app.openWindow", "app.closeWindow",
          "autostart.enable", "tray.create", "tray.setIcon", "tray.setTooltip", "tray.setMenu", "shortcut.register"]
        + Self.actions.map(\.name).filter { $0.hasPrefix("window.") || $0.hasPrefix("menu.") })
    for action in Self.actions {
      #expect(sampled.contains(action.name), "\(action.name) needs a sample call in ShapeDriftTests.samples")
    }
    #expect(Self.actions.first { $0.name == "app.exit" }?.result == .void)
  }

  @Test func everyResultMatchesItsDeclaredShape() async throws {
    let calls = Self.samples.map { name, options in
      "results.push(['\(name)', await nbridge.\(name)(\(options))]);"
    }.joined(separator: "\n")
    let value = try await NBridgeTest.evaluate(
      "const results = [];\n\(calls)\nreturn results;", plugins: Builtins.plugins,
      configure: { $0.environment = [:] })
    let results = try #require(value.arrayValue)
    #expect(results.count == Self.samples.count)
    for pair in results {
      let name = pair[0]?.stringValue ?? "?"
      let declared = try #require(Self.actions.first { $0.name == name }?.result)
      let problems = ShapeCheck.value(pair[1] ?? .null, against: declared, at: "result")
      #expect(
        problems.isEmpty,
        "\(name) returned \((pair[1] ?? .null).jsonText), declared \(declared.typeScript): \(problems.joined(separator: "; "))"
      )
    }
  }

  @Test func eventPayloadsMatchTheirDeclaredShapes() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const seen = {};
      const received = nbridge.notification.addListener('received', (event) => { seen['notification.received'] = event; });
      await nbridge.notification.show({ title: 'T', body: 'B' });
      received.remove();
      const change = new Promise((resolve) => {
        const handle = nbridge.pasteboard.addListener('change', (event) => { handle.remove(); resolve(event); });
      });
      await nbridge.pasteboard.setString({ string: 'changed' });
      seen['pasteboard.change'] = await change;
      return seen;
      """, plugins: Builtins.plugins, configure: { $0.environment = [:] })
    func events<P: Plugin>(_ type: P.Type) -> [(String, Shape)] {
      P.definition.events.map { ("\(P.definition.service).\($0.name)", $0.payload) }
    }
    let declared = Builtins.plugins.flatMap { events($0) }
    for name in ["notification.received", "pasteboard.change"] {
      let payload = try #require(value[name], "no \(name) event came")
      let shape = try #require(declared.first { $0.0 == name }?.1)
      let problems = ShapeCheck.value(payload, against: shape, at: "payload")
      #expect(problems.isEmpty, "\(name) sent \(payload.jsonText): \(problems.joined(separator: "; "))")
    }
  }
}
