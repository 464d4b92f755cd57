import Foundation
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import NBridgeWindow
import Synchronization
import Testing

/// A window run built by a program of its own (here with the echo test plugin): a page's
/// `retainCallback` receives every streamed result before the call resolves.
@Suite struct WindowStreamingTests {
  @Test func aPageReceivesStreamedResultsThroughRetainCallback() throws {
    let xvfb = try XvfbServer()
    defer { xvfb.stop() }
    let dir = try TemporaryDirectory(prefix: "nbridge-window-stream")
    try "<!doctype html><title>stream</title><p>stream</p>\n"
      .write(toFile: dir.file("index.html"), atomically: true, encoding: .utf8)
    try """
      const seen = [];
      const result = await nbridge.echo.stream({ count: 4, retainCallback: (value) => seen.push(value) });
      return [result, seen];
      """.write(toFile: dir.file("stream.js"), atomically: true, encoding: .utf8)
    setenv("DISPLAY", xvfb.display, 1)
    unsetenv("WAYLAND_DISPLAY")
    var configuration = RuntimeConfiguration(
      plugins: PluginRegistry([EchoPlugin.self]), manifest: AppManifest(id: "dev.nbridge.stream", name: "stream"),
      dataDirectory: dir.file("data"), sharedDirectory: dir.file("shared"))
    let output = Mutex("")
    configuration.output = { _, text in output.withLock { $0 += text } }
    var options = WindowOptions(page: dir.file("index.html"), title: "stream")
    options.script = dir.file("stream.js")
    options.exitAfterScript = true
    let status = WindowApp.run(configuration, options: options)
    let printed = output.withLock { $0 }
    #expect(status == 0, "\(printed)")
    #expect(printed.contains("[4,[1,2,3,4]]"), "\(printed)")
  }
}
