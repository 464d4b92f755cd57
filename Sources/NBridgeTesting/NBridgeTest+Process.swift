import Foundation

/// The `nbridge` executable built with the tests, as a child process (`TestMode.process`).
extension NBridgeTest {
  /// `$NBRIDGE_BIN`, else `nbridge` beside the test bundle (SwiftPM puts both in one folder).
  public static var executable: String {
    if let explicit = ProcessInfo.processInfo.environment["NBRIDGE_BIN"], !explicit.isEmpty { return explicit }
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var dir = (exe as NSString).deletingLastPathComponent
    while !dir.isEmpty && dir != "/" {
      let candidate = (dir as NSString).appendingPathComponent("nbridge")
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir = (dir as NSString).deletingLastPathComponent
    }
    return "nbridge"
  }

  /// Runs `nbridge` with `arguments` to completion, with `NBRIDGE_DATA_DIR`/`NBRIDGE_SHARED_DIR`
  /// taken from `environment` (tests pass temp dirs) and no desktop unless given.
  public static func command(
    _ arguments: [String], environment: [String: String?] = [:], stdin: String? = nil, timeout: Double = 60
  ) throws -> Outcome {
    try ChildProcess.run(executable, arguments, environment: separateInstances(environment), stdin: stdin, timeout: timeout)
  }

  /// Starts `nbridge` with `arguments` in the background.
  public static func start(_ arguments: [String], environment: [String: String?] = [:]) throws -> ChildProcess {
    try ChildProcess(executable, arguments, environment: separateInstances(environment))
  }

  /// `environment` with `NBRIDGE_NEW_INSTANCE=1` unless it names that variable (a nil value
  /// leaves it unset): tests run side by side, in this process and others, often with one app id
  /// and one runtime folder, and a launch of an app that runs already would hand itself over to
  /// another test's instance (single instance). A test of single instance passes it as nil.
  static func separateInstances(_ environment: [String: String?]) -> [String: String?] {
    guard environment.index(forKey: newInstanceVariable) == nil else { return environment }
    var separate = environment
    separate[newInstanceVariable] = "1"
    return separate
  }

  /// The variable that makes every launch a new instance, as `--new-instance` does.
  static let newInstanceVariable = "NBRIDGE_NEW_INSTANCE"

  /// An environment with no desktop: no X, Wayland or session bus; and every launch a new
  /// instance (`NBRIDGE_NEW_INSTANCE=1`, see `separateInstances`), also for a test that starts
  /// the binary through a shell or `ChildProcess`.
  public static let headless: [String: String?] = [
    "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "DBUS_SESSION_BUS_ADDRESS": nil, newInstanceVariable: "1",
  ]
}
