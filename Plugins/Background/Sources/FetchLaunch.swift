/// Why this run was started, when it was started for a fetch (`nbridge run --fetch`,
/// `nbridge simulate fetch --launch`): the CLI sets `NBRIDGE_RUN_FETCH` in the run's environment.
enum FetchLaunch: String, Sendable {
  /// Woken by the scheduler.
  case schedule
  /// `nbridge simulate fetch --launch`: prints its result line when done.
  case simulated

  /// The variable in the run's environment.
  static let variable = "NBRIDGE_RUN_FETCH"

  /// The launch reason in `environment`, if any.
  init?(environment: [String: String]) {
    guard let text = environment[Self.variable], let launch = FetchLaunch(rawValue: text) else { return nil }
    self = launch
  }
}
