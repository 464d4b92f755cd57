import Foundation
import NBridgeTesting
import Testing

/// A remote page with the bridge (`remote` in the manifest): pages of a listed `https` origin get
/// `nbridge` with that origin's subset of the app's permissions; a page of any other origin, even
/// the same host on another port, gets nothing, and a page that navigates there loses the bridge.
/// Served by a local HTTPS server whose certificate the test makes and trusts for that run only
/// (`NBRIDGE_TEST_TLS_CERT`). Issue 33, item 6.
@Suite(.serialized, .onTestThreads) struct RemotePageTests {
  static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/remote-pages").path
  static let server = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/https_pages.py").path

  /// `https_pages.py` serving the remote pages with `cert`, and its port.
  static func startServer(_ dir: TemporaryDirectory) throws -> (ChildProcess, Int) {
    let server = try ChildProcess("python3", [Self.server, dir.file("cert.pem"), dir.file("key.pem"), Self.pages])
    guard server.waitForOutput("\n", timeout: 20), let line = server.stdout.split(separator: "\n").first,
      line.hasPrefix("port "), let port = Int(line.dropFirst(5))
    else {
      server.stop()
      throw ChildProcessError.notReady("https_pages.py: \(server.stderr)")
    }
    return (server, port)
  }

  @Test func aListedOriginGetsItsPermissionsAndAnUnlistedOneNothing() throws {
    let xvfb = try XvfbServer()
    let dir = try TemporaryDirectory(prefix: "nbridge-remote")
    let made = try ChildProcess.run(
      "openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", dir.file("key.pem"), "-out", dir.file("cert.pem"),
        "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
      ], environment: [:], timeout: 60)
    #expect(made.status == 0, "\(made.stderr)")
    let (listed, port) = try Self.startServer(dir)
    defer { listed.stop() }
    let (unlisted, otherPort) = try Self.startServer(dir)
    defer { unlisted.stop() }
    let origin = "https://127.0.0.1:\(port)"
    try FileManager.default.createDirectory(atPath: dir.file("app"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: Self.pages + "/index.html", toPath: dir.file("app/index.html"))
    try """
      {"id": "dev.nbridge.remotetest", "permissions": ["app", "storage", "pasteboard"],
       "remote": [{"origin": "\(origin)", "permissions": ["storage"]}]}
      """.write(toFile: dir.file("app/nbridge.json"), atomically: true, encoding: .utf8)
    try "location.href = '\(origin)/remote.html?next=https://127.0.0.1:\(otherPort)';"
      .write(toFile: dir.file("go.js"), atomically: true, encoding: .utf8)
    var env = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    env["NBRIDGE_TEST_TLS_CERT"] = dir.file("cert.pem")
    // The pages cannot end the run (app is not among the remote permissions): the test does (SIGTERM).
    let app = try NBridgeTest.start(["app", dir.file("app"), "--script", dir.file("go.js")], environment: env)
    defer { app.stop() }
    #expect(app.waitForOutput("unlisted page saw: ", timeout: 60), "\(app.stdout)\(app.stderr)")
    app.signal(SIGTERM)
    // A window's end stops WebKit's processes too: seconds on a loaded machine (10 s was missed once).
    #expect(app.wait(timeout: 30) == 143, "\(app.stderr)")
    let line = app.stdout.split(separator: "\n").first { $0.hasPrefix("remote.html") && $0.contains("remote page: ") }
    let json = line.map { String($0[$0.range(of: "remote page: ")!.upperBound...]) } ?? "{}"
    let seen = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
    #expect(seen["nbridge"] as? String == "object", "\(app.stdout)\(app.stderr)")
    #expect(seen["stored"] as? String == "listed")
    #expect(seen["preference"] as? String == "listed")
    // Outside its subset: permission_denied naming the remote entry, on either path.
    #expect((seen["pasteboard"] as? String)?.hasPrefix("permission_denied: pasteboard.getString: this page's origin may not use \"pasteboard\"") == true, "\(json)")
    #expect((seen["app"] as? String)?.hasPrefix("permission_denied") == true, "\(json)")
    #expect(seen["wkBridge"] as? String == "rejected permission_denied", "\(json)")
    // The unlisted origin (same host, another port) has no nbridge, and its messages did no work.
    #expect(app.stdout.contains(#"unlisted page saw: {"nbridge":"undefined","nBridge":"undefined","reply":"0permission_denied"#), "\(app.stdout)")
    #expect(app.stderr.contains("nbridge app: ignored a WKBridge message from a frame that is not the app's own page"))
    try "nbridge.storage.get({ key: 'fromRemote' }).then((v) => nbridge.storage.get({ key: 'fromUnlisted' }).then((w) => console.log(JSON.stringify([v, w]))));"
      .write(toFile: dir.file("app/read.js"), atomically: true, encoding: .utf8)
    var headless = env
    headless["DISPLAY"] = nil
    let read = try NBridgeTest.command(["run", dir.file("app/read.js")], environment: headless, timeout: 30)
    #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"["listed",null]"#, "\(read.stderr)")
  }
}
