import Foundation

/// Where the `nbridge` executable built with the tests is.
public enum NBridgeBinary {
  /// `$NBRIDGE_BIN`, else `nbridge` beside the test bundle (SwiftPM puts both in one folder).
  public static var path: String {
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
  public static func run(
    _ arguments: [String], environment: [String: String?] = [:], stdin: String? = nil, timeout: Double = 60
  ) throws -> (status: Int32, stdout: String, stderr: String) {
    try ChildProcess.run(path, arguments, environment: environment, stdin: stdin, timeout: timeout)
  }

  /// Starts `nbridge` with `arguments` in the background.
  public static func start(_ arguments: [String], environment: [String: String?] = [:]) throws -> ChildProcess {
    try ChildProcess(path, arguments, environment: environment)
  }

  /// An environment with no desktop: no X, Wayland or session bus.
  public static let headless: [String: String?] = [
    "DISPLAY": nil, "WAYLAND_DISPLAY": nil, "DBUS_SESSION_BUS_ADDRESS": nil,
  ]
}
