/// The command that wakes an app for a fetch, `<nbridge> run --fetch [--data-dir DIR] <entry>`,
/// and the variables the woken run keeps from the run that scheduled it.
struct FetchWakeCommand: Equatable, Sendable {
  /// Variables a woken run must see as its scheduler did: its folders and the test knobs.
  static let keptVariables = [
    "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR", "NBRIDGE_FETCH_MINIMUM",
    "NBRIDGE_SCHEDULER", "NBRIDGE_SHARED_DIR",
  ]

  /// The program and its arguments.
  var arguments: [String]
  /// The variables to set, sorted by name.
  var environment: [(key: String, value: String)]

  /// The command for the app whose entry script is `entry`, run by the `nbridge` at `executable`;
  /// `dataDirectory` is passed only when it is not the app's default one.
  init(executable: String, entry: String, dataDirectory: String?, environment: [String: String]) {
    arguments = [executable, "run", "--fetch"]
    if let dataDirectory { arguments += ["--data-dir", dataDirectory] }
    arguments.append(entry)
    self.environment = Self.keptVariables.compactMap { name in
      environment[name].flatMap { $0.isEmpty ? nil : (name, $0) }
    }
  }

  static func == (a: Self, b: Self) -> Bool {
    a.arguments == b.arguments && a.environment.map(\.key) == b.environment.map(\.key)
      && a.environment.map(\.value) == b.environment.map(\.value)
  }
}
