import CGio
import CWebKitGTK
import Glibc
import NBridgeBuiltins
import NBridgeEcho
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem
import NBridgeWindow

// nbridge-bench-webview: one measured window, run by nbridge-bench under Xvfb.
//   floor PAGE CALLS T0   a bare WebKitGTK window (no nbridge code): a message handler with a reply
//                         that answers at once; times CALLS round trips from the page
//   nbridge PAGE CALLS T0 `nbridge app` with the echo plugin: times CALLS `await nbridge.echo.echo(...)`
//                         and CALLS WKBridgeKit-style JSON + evaluate round trips
// T0 is the parent's wall clock (ms since the epoch) when it started this process; `load_ms` is
// the time from then until the page could make its first call. Prints `BENCH name value` lines,
// then `BENCH done 1`, and stays a second so the parent can read its memory.

/// The command line, read once (C callbacks below reach it without capturing anything).
enum Bench {
  static let arguments = CommandLine.arguments
  static let valid = arguments.count == 5 && Int(arguments[3]) != nil && Double(arguments[4]) != nil
  static var calls: Int { Int(arguments[3])! }
  static var t0: Double { Double(arguments[4])! }
  static var page: String { arguments[2] }
  static var folder: String { String(page[..<page.lastIndex(of: "/")!]) }
  static var file: String { String(page[page.index(after: page.lastIndex(of: "/")!)...]) }
  static let message = #"{"key":"k","value":"v"}"#
}
guard Bench.valid else {
  print("usage: nbridge-bench-webview floor|nbridge PAGE CALLS T0_MS")
  exit(2)
}
let arguments = Bench.arguments
let page = Bench.page
let calls = Bench.calls
let t0 = Bench.t0

/// The page-side timing loop: `call()` is awaited `Bench.calls` times.
func timing(_ name: String, _ call: String) -> String {
  let calls = Bench.calls
  return """
  {
    const call = \(call);
    for (let i = 0; i < 200; i++) await call();
    const start = performance.now();
    for (let i = 0; i < \(calls); i++) await call();
    lines.push('BENCH \(name) ' + ((performance.now() - start) * 1000 / \(calls)));
  }
  """
}

switch arguments[1] {
case "nbridge":
  let script = """
    const lines = [];
    await nbridge.echo.echo({});
    lines.push('BENCH load_ms ' + (Date.now() - \(t0)));
    \(timing("roundtrip_us", "() => nbridge.echo.echo({ key: 'k', value: 'v' })"))
    const pending = new Map();
    let next = 0;
    nbridge.resolvePromise = (id, data) => { const resolve = pending.get(id); pending.delete(id); resolve(data); };
    \(timing("wkbridge_us", """
      () => new Promise((resolve) => {
        const promiseId = 'p' + next++;
        pending.set(promiseId, resolve);
        window.webkit.messageHandlers.WKBridge.postMessage(JSON.stringify(
          { service: 'echo', action: 'echo', promiseId, option: { key: 'k', value: 'v' } }));
      })
      """))
    for (const line of lines) console.log(line);
    console.log('BENCH done 1');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    """
  let scriptPath = "/tmp/nbridge-bench-webview-\(getpid()).js"
  let fd = open(scriptPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  var text = script
  text.withUTF8 { _ = write(fd, $0.baseAddress, $0.count) }
  close(fd)
  let dataDirectory = ProcessEnvironment.value("NBRIDGE_DATA_DIR") ?? "/tmp/nbridge-bench-webview-\(getpid())"
  var configuration = RuntimeConfiguration(
    plugins: PluginRegistry(Builtins.plugins + [EchoPlugin.self]), manifest: AppManifest(id: "dev.nbridge.bench", name: "bench"),
    dataDirectory: dataDirectory, sharedDirectory: dataDirectory + "/shared")
  configuration.environment = ProcessEnvironment.current
  var options = WindowOptions(page: page, title: "bench")
  options.script = scriptPath
  options.exitAfterScript = true
  let status = WindowApp.run(configuration, options: options)
  // Here, not in a `defer`: `exit` below never returns, so a deferred unlink never ran.
  unlink(scriptPath)
  fflush(nil)
  exit(status)

case "floor":
  var error: UnsafePointer<CChar>?
  guard nbw_load(&error) == 0, nbw_gtk_init() != 0 else {
    print("no WebKitGTK or display")
    exit(2)
  }
  final class Floor: @unchecked Sendable {
    var view: UnsafeMutableRawPointer?
    var finished = false
    var loaded = false
  }
  let floor = Floor()
  let me = Unmanaged.passUnretained(floor).toOpaque()
  let context = nbw_context_new("/tmp/nbridge-bench-floor-\(getpid())", "/tmp/nbridge-bench-floor-\(getpid())/cache")
  nbw_context_register_scheme(
    context, "bench",
    { request, _, path, _ in
      let name = path.map { String(cString: $0) } ?? "/"
      let full = Bench.folder + (name == "/" ? "/index.html" : name)
      let fd = open(full, O_RDONLY)
      var bytes: [UInt8] = []
      if fd >= 0 {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
          let n = read(fd, &chunk, chunk.count)
          if n <= 0 { break }
          bytes += chunk[0..<n]
        }
        close(fd)
      }
      let mime = full.hasSuffix(".html") ? "text/html" : full.hasSuffix(".css") ? "text/css" : "text/javascript"
      nbw_scheme_respond(request, fd >= 0 ? 200 : 404, mime, bytes, bytes.count)
    }, me)
  let manager = nbw_content_manager_new()
  _ = nbw_content_manager_add_reply_handler(manager, "floor", { text, reply, _ in nbw_reply(reply, text) }, me)
  floor.view = nbw_view_new(
    context, manager,
    { event, data in
      let floor = Unmanaged<Floor>.fromOpaque(data!).takeUnretainedValue()
      guard event == 3, !floor.loaded else { return }
      floor.loaded = true
      let body = """
        const lines = [];
        await window.webkit.messageHandlers.floor.postMessage('{}');
        lines.push('BENCH load_ms ' + (Date.now() - \(Bench.t0)));
        \(timing("roundtrip_us", "() => window.webkit.messageHandlers.floor.postMessage('\(Bench.message)')"))
        return lines.join('\\n');
        """
      nbw_view_call_async(
        floor.view, body, "bench://floor/bench.js",
        { json, error, data in
          let floor = Unmanaged<Floor>.fromOpaque(data!).takeUnretainedValue()
          if let json {
            // The lines come back as one JSON string.
            let text = String(cString: json).dropFirst().dropLast().replacingBackslashN()
            print(text)
          } else {
            print("floor script failed: \(error.map { String(cString: $0) } ?? "?")")
          }
          print("BENCH done 1")
          fflush(nil)
          usleep(1_000_000)
          floor.finished = true
        }, data)
    }, { _, _ in }, { _, _, _, _ in 0 }, { _, _, _, _, _ in 1 }, { _ in }, me)
  let window = nbw_window_new("floor", 1024, 768, 1, { _ in }, me)
  nbw_window_show(window, floor.view)
  nbw_view_load(floor.view, "bench://floor/" + Bench.file)
  while !floor.finished { g_main_context_iteration(nil, 1) }
  exit(0)

default:
  print("unknown mode \(arguments[1])")
  exit(2)
}

extension Substring {
  /// `\n` escapes of a JSON string made into newlines (the only escapes the floor's lines hold).
  func replacingBackslashN() -> String {
    var out = ""
    var iterator = makeIterator()
    while let c = iterator.next() {
      if c == "\\", let n = iterator.next() { out.append(n == "n" ? "\n" : n) } else { out.append(c) }
    }
    return out
  }
}
