import Foundation
import NBridgePlugin
import NBridgeRuntime
import Synchronization

/// One-shot runs of JavaScript against a real runtime in-process, for Swift tests and plugin
/// authors; `withRuntime` keeps one across steps.
///
/// ```swift
/// let value = try await JSHarness.evaluate("return await nbridge.echo.echo({a: 1})")
/// ```
/// Both run on the real clock, on a thread of their own, with fresh temporary data and shared folders.
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

  /// Runs `source` as a whole script until nothing keeps it alive; returns its exit status and output.
  public static func run(
    _ source: String, plugins: [any Plugin.Type] = [EchoPlugin.self], configure: @Sendable (inout RuntimeConfiguration) -> Void = { _ in }
  ) async throws -> Outcome {
    let scratch = try TemporaryDirectory(prefix: "nbridge-harness")
    var configuration = RuntimeConfiguration.forTesting(plugins: plugins, in: scratch)
    configure(&configuration)
    let captured = Mutex<(String, String)>(("", ""))
    configuration.output = { fd, text in
      captured.withLock { if fd == 2 { $0.1 += text } else { $0.0 += text } }
    }
    let final = configuration
    let status: Int32 = await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(returning: Runtime.run(final, source: source, name: scratch.file("harness.js")))
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    _ = scratch
    let (out, err) = captured.withLock { $0 }
    return Outcome(status: status, stdout: out, stderr: err)
  }

  /// Runs `body` as the body of an async function in a runtime of its own (on the real clock) and
  /// returns what it resolved with (as JSON), or throws `ScriptError` with what it rejected with.
  public static func evaluate(
    _ body: String, plugins: [any Plugin.Type] = [EchoPlugin.self], configure: @Sendable (inout RuntimeConfiguration) -> Void = { _ in }
  ) async throws -> JSONValue {
    try await withRuntime(plugins: plugins, realTime: true, configure: configure) { rt in try await rt.evaluate(body) }
  }
}
