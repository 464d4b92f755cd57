import Foundation
import NBridgeTesting
import Testing

/// `www/index.js` headless: no display, no Wayland, no session bus.
@Suite struct SampleAppTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

  @Test func sampleAppRunsHeadlessAndEndsByItself() throws {
    let dir = try TemporaryDirectory(prefix: "nbridge-sample")
    var env = NBridgeBinary.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
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
    let second = try NBridgeBinary.run(["run", SampleAppTests.root + "/www/index.js"], environment: env, timeout: 30)
    #expect(second.stdout.contains("launch #2") && !second.stdout.contains("First launch"))
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
