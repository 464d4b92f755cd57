import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// `app`'s page-only actions in a real WebKitGTK window under Xvfb (`screenshot`,
/// `clearCache`, popup windows), and the system's links (`tel:`, `sms:`, `mailto:`) handed to `xdg-open`.
@Suite(.serialized, .onTestThreads) struct AppWindowActionsTests {
  @Test func screenshotWritesThePagesPNGAndClearCacheClearsWebKitsData() throws {
    let desktop = try AppWindowTests.Desktop()
    let r = try desktop.app(["--script", desktop.script("app-actions.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    let shot = try #require(result["shot"] as? [String: Any], "\(r.stdout)\n\(r.stderr)")
    let path = try #require(shot["path"] as? String)
    #expect(path.hasPrefix(desktop.dir.file("data") + "/screenshots/screenshot-") && path.hasSuffix(".png"), "\(path)")
    #expect(shot["width"] as? Int == 640 && shot["height"] as? Int == 480, "\(shot)")
    let check = try ChildProcess.run(
      "python3", [AppWindowTests.fixtures + "/../png-colors.py", path], environment: [:], timeout: 30)
    #expect(check.status == 0, "\(check.stderr)")
    let fields = check.stdout.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    #expect(fields.prefix(2) == [640, 480], "the PNG's size: \(check.stdout)")
    #expect((fields.last ?? 0) >= 8, "not blank: distinct colours \(check.stdout)")

    let cleared = try #require(result["cleared"] as? [String: Any])["cleared"] as? [String]
    #expect(Set(cleared ?? []).isSuperset(of: ["diskCache", "memoryCache", "cookies"]), "\(cleared ?? [])")
  }

  @Test func telSmsAndMailtoLinksGoToTheSystem() throws {
    var desktop = try AppWindowTests.Desktop()
    let bin = desktop.dir.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let log = desktop.dir.file("xdg-open.log")
    let standIn = bin + "/xdg-open"
    try "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(log)'\n".write(toFile: standIn, atomically: true, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn)
    desktop.env["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let r = try desktop.app(["--script", desktop.script("links.js"), "--exit-after-script"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(ScriptOutput.json(r.stdout)["location"] as? String == "nbridge://dev.nbridge.pagetest/index.html")
    let expected = ["tel:+4930123456", "sms:+4930123456?body=hi", "mailto:someone@example.com?subject=Hi"]
    let deadline = Date().addingTimeInterval(10)
    var lines: [String] = []
    repeat {
      lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      if lines.count >= expected.count { break }
      usleep(20_000)
    } while Date() < deadline
    // Each link starts an xdg-open of its own: they may write in any order.
    #expect(lines.sorted() == expected.sorted(), "xdg-open was given: \(lines)")
    for url in expected { #expect(r.stderr.contains("nbridge app: opening \(url) outside the app (xdg-open)")) }
  }

  @Test func openWindowShowsAPopupWhereOnlyTheAppsOriginHasTheBridge() throws {
    let desktop = try AppWindowTests.Desktop()
    let server = try StaticFileServer(directory: AppWindowTests.fixtures)
    defer { withExtendedLifetime(server) {} }
    let port = server.port
    let app = try NBridgeTest.start(
      ["app", AppWindowTests.fixtures, "--script", desktop.script("popup.js"), "--exit-after-script", "--", String(port)],
      environment: desktop.env)
    defer { app.stop() }
    #expect(app.waitForOutput("opened window-1 window-2", timeout: 60), "\(app.stdout)\n\(app.stderr)")
    let display = desktop.xvfb.display
    // Both popups are windows of their own, with the titles asked for.
    let own = try X11Windows.window("Popup Own", display: display)
    let foreign = try X11Windows.window("Popup Foreign", display: display)
    #expect(own != foreign)
    // The foreign page's calls reached the window and were refused.
    let deadline = Date().addingTimeInterval(30)
    while !app.stderr.contains("ignored a call from window window-2") && Date() < deadline { usleep(20_000) }
    #expect(app.stderr.contains("ignored a call from window window-2, whose page is not of the app's origin"), "\(app.stderr)")
    #expect(app.stderr.contains("ignored a WKBridge message from window window-2"), "\(app.stderr)")
    // The user closes it with its title bar's close button (the right end of the header bar).
    let geometry = try X11Windows.xdotool(["getwindowgeometry", "--shell", foreign], display: display)
    let width = geometry.split(separator: "\n").first { $0.hasPrefix("WIDTH=") }.flatMap { Int($0.dropFirst(6)) } ?? 0
    _ = try X11Windows.xdotool(
      ["mousemove", "--window", foreign, String(width - 22), "22", "click", "1"], display: display)
    #expect(app.wait(timeout: 60) == 0, "\(app.stdout)\n\(app.stderr)")
    let result = ScriptOutput.json(app.stdout)
    #expect(result["own"] as? String == "window-1" && result["foreign"] as? String == "window-2", "\(app.stdout)")
    #expect((result["fromPopup"] as? [String: Any])?["from"] as? String == "/popup.html", "\(app.stdout)")
    #expect(result["userClosed"] as? [String] == ["window-2"], "\(app.stdout)")
    #expect(result["closed"] as? [String] == ["window-2", "window-1"], "\(app.stdout)")
    #expect(result["again"] as? String == "not_found")
    #expect(result["badUrl"] as? String == "invalid_parameter")
    #expect(try desktop.stored("fromForeign") == "null")
    #expect(try desktop.stored("fromForeign2") == "null")
  }

  @Test func aNewWindowOfTheAppsOriginOpensAsAPopup() throws {
    let desktop = try AppWindowTests.Desktop()
    let app = try NBridgeTest.start(
      ["app", AppWindowTests.fixtures, "--script", desktop.script("window-open.js"), "--exit-after-script"],
      environment: desktop.env)
    defer { app.stop() }
    #expect(app.waitForOutput("link ready", timeout: 60), "\(app.stdout)\n\(app.stderr)")
    let display = desktop.xvfb.display
    let main = try X11Windows.window("Page Test", display: display)
    _ = try X11Windows.xdotool(["mousemove", "--window", main, "320", "240", "click", "1"], display: display)
    #expect(app.wait(timeout: 60) == 0, "\(app.stdout)\n\(app.stderr)")
    let result = ScriptOutput.json(app.stdout)
    #expect((result["fromPopup"] as? [String: Any])?["from"] as? String == "/popup.html", "\(app.stdout)\n\(app.stderr)")
    // The app's own page stayed where it was: the link opened a window of its own.
    #expect(result["location"] as? String == "nbridge://dev.nbridge.pagetest/index.html", "\(app.stdout)")
  }

  @Test func aPopupsBackButtonGoesBack() throws {
    let desktop = try AppWindowTests.Desktop()
    let app = try NBridgeTest.start(
      ["app", AppWindowTests.fixtures, "--script", desktop.script("popup-nav.js"), "--exit-after-script"],
      environment: desktop.env)
    defer { app.stop() }
    #expect(app.waitForOutput("at a,b", timeout: 60), "\(app.stdout)\n\(app.stderr)")
    let popup = try X11Windows.window("Popup Nav", display: desktop.xvfb.display)
    // The back button is the first at the left of the header bar.
    _ = try X11Windows.xdotool(
      ["mousemove", "--window", popup, "22", "22", "click", "1"], display: desktop.xvfb.display)
    #expect(app.wait(timeout: 60) == 0, "\(app.stdout)\n\(app.stderr)")
    #expect(ScriptOutput.json(app.stdout)["navLog"] as? [String] == ["a", "b", "a"], "\(app.stdout)")
  }
}
