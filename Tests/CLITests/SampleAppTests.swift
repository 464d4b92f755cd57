import Foundation
import NBridgeTesting
import Testing

/// `www/index.js` headless: no display, no Wayland, no session bus.
@Suite struct SampleAppTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  /// A headless environment with the sample's data, its control socket and its fetch schedule
  /// in `dir` (no scheduler: nothing outlives the test).
  static func environment(_ dir: TemporaryDirectory) throws -> [String: String?] {
    var env = NBridgeBinary.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["NBRIDGE_SCHEDULER"] = "off"
    let runtimeDir = dir.file("xdg")
    try FileManager.default.createDirectory(atPath: runtimeDir, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtimeDir)
    env["XDG_RUNTIME_DIR"] = runtimeDir
    return env
  }

  @Test func sampleAppRunsHeadlessAndEndsByItself() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-sample")
    let env = try Self.environment(dir)
    let started = Date()
    let r = try NBridgeBinary.run(["run", SampleAppTests.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(Date().timeIntervalSince(started) < 15)
    #expect(r.stdout.contains("app.appInfo: { id: 'dev.nbridge.sample'"))
    #expect(r.stdout.contains("preference.get: { dark: true, accent: '#0a84ff' }"))
    #expect(r.stdout.contains("pasteboard.getString: Copied by the nbridge sample"))
    #expect(r.stdout.contains("First launch: stored a glossary of 4 words."))
    #expect(r.stdout.contains("launch #1"))
    #expect(r.stdout.contains("Copied \"Retina\" -> A display whose pixels"))
    #expect(r.stderr.contains("Retina: A display whose pixels"))
    #expect(r.stdout.contains("background.setMinimumFetchInterval: { interval: 600, nextFetchAt: '"), "\(r.stdout)")
    #expect(r.stdout.contains("No background refresh yet."))
    let second = try NBridgeBinary.run(["run", SampleAppTests.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(second.stdout.contains("launch #2") && !second.stdout.contains("First launch"))
  }

  /// Xcode's "Simulate Background Fetch" against the running sample app, by its folder: the
  /// app's listener records the refresh in storage and answers `newData`; a run woken by the
  /// scheduler (`run --fetch`) only answers its fetch; the next launch shows the last refresh.
  @Test func simulateFetchWakesTheRunningSampleApp() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-sample-fetch")
    let env = try Self.environment(dir)
    let app = try NBridgeBinary.start(["run", Self.root + "/www/index.js", "--", "--watch"], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("`nbridge simulate fetch www` wakes it", timeout: 30), "\(app.stdout)\(app.stderr)")

    let simulated = try NBridgeBinary.run(["simulate", "fetch", Self.root + "/www"], environment: env)
    #expect(simulated.status == 0, "\(simulated.stderr)")
    #expect(
      simulated.stdout.range(of: #"^fetch 1: newData in \d+ ms\n$"#, options: .regularExpression) != nil,
      "\(simulated.stdout)")
    let line = app.stdout.split(separator: "\n").first { $0.hasPrefix("  background fetch 1: ") }
    let at = line.flatMap { $0.firstMatch(of: #/at: '([^']+)', reason: 'simulated'/#)?.output.1 }
    #expect(at != nil, "\(app.stdout)")
    app.stop()

    let woken = try NBridgeBinary.run(["run", "--fetch", Self.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(woken.status == 0, "\(woken.stderr)")
    let wokenAt = woken.stdout.firstMatch(of: #/^  background fetch 2: \{ at: '([^']+)', reason: 'schedule' \}\n$/#)?.output.1
    #expect(wokenAt != nil, "\(woken.stdout)")

    let next = try NBridgeBinary.run(["run", Self.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(next.status == 0, "\(next.stderr)")
    #expect(next.stdout.contains("  Last background refresh: \(wokenAt ?? "?") (schedule).\n"), "\(next.stdout)")
    #expect(at.map { "\($0)" < "\(wokenAt ?? "")" } == true, "the refreshes are not in order")
  }

  @Test func typesDeclareEveryBuiltIn() throws {
    let r = try NBridgeBinary.run(["types"])
    #expect(r.status == 0)
    for service in ["app", "storage", "preference", "pasteboard", "notification", "background"] {
      #expect(r.stdout.contains("  \(service): NBridge"))
    }
    #expect(r.stdout.contains("set(options: { key: string; value: JSONValue; group?: string }): Promise<void>;"))
    #expect(r.stdout.contains("addListener(event: 'change', callback: (payload: PasteboardChange) => void)"))
    let json = try NBridgeBinary.run(["plugins", "--json"])
    let services = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(services?.map { $0["service"] as? String } == ["app", "storage", "preference", "pasteboard", "notification", "background"])
  }
}
