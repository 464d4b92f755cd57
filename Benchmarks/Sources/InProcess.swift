import Foundation
import NBridgeConsole
import NBridgePlugin
import NBridgeRuntime
import NBridgeTesting
import Synchronization

/// Runs a script in this process with the real runtime and collects the `BENCH name value` lines it prints.
enum InProcess {
  /// Runs `source` (no watchdog); returns the numbers it printed, by name, in order.
  static func run(_ source: String, plugins: [any Plugin.Type], directory: String) -> [String: [Double]] {
    var configuration = RuntimeConfiguration(
      plugins: PluginRegistry(plugins), manifest: AppManifest(id: "bench", name: "bench"),
      dataDirectory: "\(directory)/data", sharedDirectory: "\(directory)/shared")
    configuration.headless = true
    configuration.environment = ProcessInfo.processInfo.environment
    configuration.extensions = [ConsoleExtension.make()]
    let captured = Mutex("")
    configuration.output = { fd, text in
      if fd == 1 { captured.withLock { $0 += text } } else { FileHandle.standardError.write(Data(text.utf8)) }
    }
    let status = Runtime.run(configuration, source: source, name: "\(directory)/bench.js")
    if status != 0 { FileHandle.standardError.write(Data("bench script exited with \(status)\n".utf8)) }
    var figures: [String: [Double]] = [:]
    for line in captured.withLock({ $0 }).split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 3, parts[0] == "BENCH", let value = Double(parts[2]) else { continue }
      figures[String(parts[1]), default: []].append(value)
    }
    return figures
  }

  /// JS that times `rounds` rounds of `calls` sequential awaits of `expression` (after a warm-up round)
  /// and prints `BENCH label µs-per-call` for each.
  static func sequential(_ label: String, _ expression: String, calls: Int, rounds: Int) -> String {
    """
    for (let i = 0; i < \(max(calls / 5, 1)); i++) await \(expression);
    for (let r = 0; r < \(rounds); r++) {
      const start = Date.now();
      for (let i = 0; i < \(calls); i++) await \(expression);
      console.log('BENCH \(label) ' + ((Date.now() - start) * 1000 / \(calls)));
    }
    """
  }

  /// µs per sequential `echo`, `echoAsync` and `echoReply` call.
  static func echo(directory: String, calls: Int, asyncCalls: Int, rounds: Int) -> [String: [Double]] {
    let source = """
      (async () => {
      \(sequential("echo", "nbridge.echo.echo({ key: 'k', value: 'v' })", calls: calls, rounds: rounds))
      \(sequential("echoAsync", "nbridge.echo.echoAsync({ key: 'k', value: 'v' })", calls: asyncCalls, rounds: rounds))
      \(sequential("echoReply", "nbridge.echo.echoReply({ key: 'k', value: 'v' })", calls: calls, rounds: rounds))
      })();
      """
    return run(source, plugins: [EchoPlugin.self], directory: directory)
  }
}
