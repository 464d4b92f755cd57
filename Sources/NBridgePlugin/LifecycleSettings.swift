/// `lifecycle` in `nbridge.json`.
public struct LifecycleSettings: Sendable, Hashable, Codable {
  /// Whether the logind session moves the state (locked or inactive → background, idle →
  /// inactive); default true.
  public var followSession: Bool?

  /// Settings; nil fields take the defaults.
  public init(followSession: Bool? = nil) {
    self.followSession = followSession
  }
}

/// `background` in `nbridge.json`: the limits of running out of sight.
public struct BackgroundSettings: Sendable, Hashable, Codable {
  /// Seconds of background execution the open tasks share, from entering background until
  /// active again (default 600, iOS's ten minutes).
  public var taskBudget: Double?
  /// Seconds a background fetch may take before it counts as failed and late (default 30).
  public var fetchTimeLimit: Double?

  /// Settings; nil fields take the defaults.
  public init(taskBudget: Double? = nil, fetchTimeLimit: Double? = nil) {
    self.taskBudget = taskBudget
    self.fetchTimeLimit = fetchTimeLimit
  }
}
