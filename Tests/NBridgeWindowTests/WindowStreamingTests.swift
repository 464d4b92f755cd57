import Foundation
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import NBridgeWindow
import Synchronization
import Testing

/// A window run built by a program of its own (here with the echo test plugin): a page's
/// `retainCallback` receives every streamed result before the call resolves. (One window run
/// per test process: a second `WindowApp.run` in the same process is not supported.)
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
      // NBridgeKit's protocol (`pageProtocol: "nbridgekit"`): its page's own nbridge.js gets each
      // partial result through nbridge.resolvePromise (to the retainCallback) and the answer
      // through nbridge.finallyResolvePromise, in that order.
      const calls = [];
      const parts = [];
      const promises = {};
      nbridge.resolvePromise = (id, data, error) => { calls.push('resolvePromise ' + JSON.stringify(data)); parts.push(data); };
      nbridge.finallyResolvePromise = (id, data, error) => {
        calls.push('finallyResolvePromise ' + JSON.stringify(data));
        promises[id](data);
      };
      const answer = await new Promise((resolve) => {
        promises.s1 = resolve;
        nBridge.callFromWeb(JSON.stringify({ service: 'echo', action: 'stream', promiseId: 's1', option: { count: 3 } }));
      });
      return [result, seen, answer, parts, calls];
      """.write(toFile: dir.file("stream.js"), atomically: true, encoding: .utf8)
    setenv("DISPLAY", xvfb.display, 1)
    unsetenv("WAYLAND_DISPLAY")
    var manifest = AppManifest(id: "dev.nbridge.stream", name: "stream")
    manifest.pageProtocol = .nbridgekit
    var configuration = RuntimeConfiguration(
      plugins: PluginRegistry([EchoPlugin.self]), manifest: manifest, dataDirectory: dir.file("data"),
      sharedDirectory: dir.file("shared"))
    let output = Mutex("")
    configuration.output = { _, text in output.withLock { $0 += text } }
    var options = WindowOptions(page: dir.file("index.html"), title: "stream")
    options.script = dir.file("stream.js")
    options.exitAfterScript = true
    let status = WindowApp.run(configuration, options: options)
    let printed = output.withLock { $0 }
    #expect(status == 0, "\(printed)")
    let nBridgeKit = #"3,[1,2,3],["resolvePromise 1","resolvePromise 2","resolvePromise 3","finallyResolvePromise 3"]"#
    #expect(printed.contains("[4,[1,2,3,4]," + nBridgeKit + "]"), "\(printed)")
  }
}
