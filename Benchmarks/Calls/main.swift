import Glibc
import NBridgeEcho
import NBridgePlugin
import NBridgeRuntime

// nbridge-bench-calls COUNT DIR: makes COUNT sequential echo calls through the real runtime,
// then prints `VmHWM <KiB>`, its own peak RSS. A program of its own, without Foundation
// (which nbridge-bench links for its JSON-string baseline), so the figure is the runtime's.

let arguments = CommandLine.arguments
guard arguments.count == 3, let count = Int(arguments[1]) else {
  print("usage: nbridge-bench-calls COUNT DIR")
  exit(2)
}
let directory = arguments[2]
var configuration = RuntimeConfiguration(
  plugins: PluginRegistry([EchoPlugin.self]), manifest: AppManifest(id: "bench", name: "bench"),
  dataDirectory: "\(directory)/data", sharedDirectory: "\(directory)/shared")
configuration.headless = true
let source = """
  (async () => {
    for (let i = 0; i < \(count); i++) await nbridge.echo.echo({ key: 'k', value: 'v' });
  })();
  """
let status = Runtime.run(configuration, source: source, name: "\(directory)/calls.js")
guard status == 0, let file = fopen("/proc/self/status", "r") else { exit(1) }
var line = [CChar](repeating: 0, count: 256)
while fgets(&line, Int32(line.count), file) != nil {
  let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  // "VmHWM:    12345 kB"
  if text.hasPrefix("VmHWM:") { print("VmHWM", text.split(separator: " ")[1]) }
}
fclose(file)
