import Foundation
import NBridgePlugin
import NBridgeRuntime
import Synchronization

/// Runs JavaScript against a real runtime in-process, for Swift tests and plugin authors.
///
/// ```swift
/// let value = try await JSHarness.evaluate("return await nbridge.echo.echo({a: 1})")
/// ```
/// Runs are serialized (one loop per process) on a thread of their own, with fresh
/// temporary data and shared folders unless given.
public enum JSHarness {
  /// What a run printed and how it ended.
  public struct Outcome: Sendable {
    /// The exit status (`ExitStatus`).
    public var status: Int32
    /// Everything written to stdout.
    public var stdout: String
    /// Everything written to stderr.
    public var stderr: String
  }

  /// A script's rejection, carried back to Swift.
  public struct ScriptError: Error, Sendable, CustomStringConvertible {
    /// The rejection's `code` (nil for errors without one).
    public var code: String?
    /// The rejection's `name` (`NBridgeError`, `TypeError`, ...).
    public var name: String
    /// The rejection's `message`, for a bridge error prefixed with `service.action: `.
    public var message: String
    /// `name [code]: message`.
    public var description: String { "\(name)\(code.map { " [\($0)]" } ?? ""): \(message)" }
  }

  private static let serial = Mutex(())

  /// Runs `source` as a whole script; returns its exit status and output.
  public static func run(
    _ source: String, plugins: [any Plugin.Type] = [EchoPlugin.self], configure: @Sendable (inout RuntimeConfiguration) -> Void = { _ in }
  ) async throws -> Outcome {
    let scratch = try TemporaryDirectory(prefix: "nbridge-harness")
    var configuration = RuntimeConfiguration(
      plugins: PluginRegistry(plugins + [HarnessPlugin.self]), manifest: AppManifest(id: "harness", name: "harness"),
      dataDirectory: scratch.file("data"), sharedDirectory: scratch.file("shared"))
    configuration.headless = true
    configuration.followsSession = false
    configuration.environment = ProcessInfo.processInfo.environment
    configure(&configuration)
    let captured = Mutex<(String, String)>(("", ""))
    configuration.output = { fd, text in
      captured.withLock { if fd == 2 { $0.1 += text } else { $0.0 += text } }
    }
    let final = configuration
    let status: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread {
        let status = serial.withLock { _ in Runtime.run(final, source: source, name: scratch.file("harness.js")) }
        continuation.resume(returning: status)
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    _ = scratch
    let (out, err) = captured.withLock { $0 }
    return Outcome(status: status, stdout: out, stderr: err)
  }

  /// Runs `body` as the body of an async function and returns what it resolved with
  /// (as JSON), or throws `ScriptError` with what it rejected with.
  public static func evaluate(
    _ body: String, plugins: [any Plugin.Type] = [EchoPlugin.self], configure: @Sendable (inout RuntimeConfiguration) -> Void = { _ in }
  ) async throws -> JSONValue {
    let token = HarnessPlugin.nextToken()
    let script = """
      (async () => {
      \(body)
      })().then(
        (value) => nbridge.harness.finish({ token: \(token), value: value === undefined ? null : value }),
        (e) => nbridge.harness.finish({ token: \(token), error: { name: String(e && e.name || 'Error'), message: String(e && e.message || e), code: e && e.code !== undefined ? String(e.code) : null } }));
      """
    let outcome = try await run(script, plugins: plugins, configure: configure)
    guard let result = HarnessPlugin.take(token) else {
      throw ScriptError(code: nil, name: "HarnessError", message: "the script did not finish (status \(outcome.status)): \(outcome.stderr)")
    }
    if let error = result["error"], case .object(let e) = error {
      throw ScriptError(
        code: e["code"]?.stringValue, name: e["name"]?.stringValue ?? "Error", message: e["message"]?.stringValue ?? "")
    }
    return result["value"] ?? .null
  }
}

/// Receives the harness's result (service `harness`).
@BridgeActor
final class HarnessPlugin: Plugin {
  nonisolated static let definition = PluginDefinition<HarnessPlugin>(
    service: "harness", summary: "Collects a JSHarness result.",
    actions: [
      Action("finish", options: .any) { (_, options: JSONValue, _) in
        let token = Int(options["token"]?.numberValue ?? 0)
        HarnessPlugin.results.withLock { $0.values[token] = options }
        return JSONValue.null
      }
    ])

  nonisolated static let results = Mutex<(last: Int, values: [Int: JSONValue])>((0, [:]))

  nonisolated static func nextToken() -> Int {
    results.withLock {
      $0.last += 1
      return $0.last
    }
  }

  nonisolated static func take(_ token: Int) -> JSONValue? {
    results.withLock { $0.values.removeValue(forKey: token) }
  }

  init(context: PluginContext) {}
}
