import Foundation
import NBridgePlugin
import NBridgeRuntime

/// Where a test runs the app's JavaScript; the same test body runs in either (Hummingbird's
/// `app.test(.router)` and `app.test(.live)` are the model).
public enum TestMode: Sendable {
  /// A runtime on a thread of the test's own process, with the plugins the test names (the echo
  /// test plugin unless it names others): no process to start; what a test of behaviour needs.
  case inProcess
  /// The `nbridge` executable built with the tests, as a child process (`nbridge run`), with the
  /// built-in plugins: what a user runs, with the command line's flags, environment, signals and
  /// exit codes; what a test of the command line needs.
  case process
}

/// nbridge's one way to test: run a script or evaluate a step in a mode (`TestMode`), keep a
/// runtime across steps on a clock the test moves (`withRuntime`), or run another command of the
/// CLI (`command`, `start`). The rest of NBridgeTesting starts real components for these to
/// meet (an X server, a session bus, ...) and stops them by the PID it started.
///
/// ```swift
/// let run = try await NBridgeTest.run("console.log(1 + 1)", .process)
/// #expect(run.status == 0 && run.stdout == "2\n")
/// #expect(try await NBridgeTest.evaluate("return await nbridge.echo.echo({a: 1})") == ["a": 1])
/// ```
public enum NBridgeTest {
  /// What a run printed and how it ended: its exit status (`ExitStatus`), stdout and stderr.
  public typealias Outcome = (status: Int32, stdout: String, stderr: String)

  /// Runs `source` as the app's script, named `name`, until nothing keeps it alive; returns its
  /// exit status and output. `environment` adds to (a nil value removes from) what the run sees.
  ///
  /// In `.inProcess` mode the run has `plugins` (the echo test plugin when nil) and `arguments`
  /// as `nbridge.args`. In `.process` mode the script is a file in a temporary folder run by
  /// `nbridge run` with `arguments` after it (the script's own after `--`), the built-in plugins
  /// (`plugins` must be nil), no desktop unless `environment` gives one, and data folders of its
  /// own unless `environment` names them.
  public static func run(
    _ source: String, _ mode: TestMode = .inProcess, name: String = "main.js", arguments: [String] = [],
    plugins: [any Plugin.Type]? = nil, environment: [String: String?] = [:], timeout: Double = 60,
    configure: @Sendable (inout RuntimeConfiguration) -> Void = { _ in }
  ) async throws -> Outcome {
    let scratch = try TemporaryDirectory(prefix: "nbridge-test")
    switch mode {
    case .inProcess:
      return try await runInProcess(source, name: scratch.file(name), plugins: plugins ?? [EchoPlugin.self]) {
        configuration in
        configuration.arguments = arguments
        for (key, value) in environment { configuration.environment[key] = value }
        configure(&configuration)
      }
    case .process:
      precondition(plugins == nil, "a .process run has the nbridge executable's plugins")
      let path = try scratch.write(name, source)
      var env = headless
      env["NBRIDGE_DATA_DIR"] = scratch.file("data")
      env["NBRIDGE_SHARED_DIR"] = scratch.file("shared")
      env.merge(environment) { _, given in given }
      return try command(["run", path] + arguments, environment: env, timeout: timeout)
    }
  }

  /// Runs `body` as the body of an async function in a run of its own and returns what it
  /// resolved with (as `JSON.stringify` sees it, `undefined` as null), or throws `ScriptError`
  /// with what it rejected with (`RunFailed` when the run ended without settling it). `plugins`
  /// and `environment` as for `run`; in `.inProcess` mode the run is on the real clock.
  public static func evaluate(
    _ body: String, _ mode: TestMode = .inProcess, plugins: [any Plugin.Type]? = nil,
    environment: [String: String?] = [:], configure: @Sendable (inout RuntimeConfiguration) -> Void = { _ in }
  ) async throws -> JSONValue {
    switch mode {
    case .inProcess:
      return try await NBridgeTest.withRuntime(
        plugins: plugins ?? [EchoPlugin.self], realTime: true,
        configure: { configuration in
          for (key, value) in environment { configuration.environment[key] = value }
          configure(&configuration)
        }
      ) { rt in
        try await rt.evaluate(body)
      }
    case .process:
      // The settled value comes back as one marked line on stderr, then the run exits.
      let marker = "nbridge-test-settled:"
      let source = """
        const settle = (outcome) => {
          console.error(\(JSONValue.string(marker).jsonText) + JSON.stringify(outcome));
          nbridge.app.exit({ code: 0 });
        };
        (async () => {
        \(body)
        })().then((value) => settle({ value: value === undefined ? null : value }),
          (e) => settle({ error: { name: String(e?.name ?? 'Error'), code: e?.code ?? null, message: String(e?.message ?? e) } }));
        """
      let run = try await run(source, .process, plugins: plugins, environment: environment)
      guard let line = run.stderr.split(separator: "\n").last(where: { $0.hasPrefix(marker) }),
        let settled = try? JSONValue(parsing: String(line.dropFirst(marker.count)))
      else {
        throw ScriptError(code: nil, name: "RunFailed", message: "the run ended (status \(run.status)) without settling: \(run.stderr)")
      }
      if case .object(let e) = settled["error"] ?? .null {
        throw ScriptError(code: e["code"]?.stringValue, name: e["name"]?.stringValue ?? "Error", message: e["message"]?.stringValue ?? "")
      }
      return settled["value"] ?? .null
    }
  }
}
