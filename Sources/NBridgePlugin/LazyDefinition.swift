import Synchronization

/// The parts of a plugin's definition that a start does not need (`AnyPluginDefinition`), built
/// on first read: building a definition makes each action's closure and shapes (about 60 k
/// instructions a plugin), and a run calls few of the services it registers.
final class LazyDefinition: Sendable {
  /// What the definition gives once built.
  struct Details: Sendable {
    let summary: String
    let actions: [ActionInfo]
    let events: [EventSpec]
  }

  private let state = Mutex<Details?>(nil)
  private let build: @Sendable () -> Details

  /// Details `build` makes the first time they are read.
  init(_ build: @escaping @Sendable () -> Details) { self.build = build }

  /// Whether they were built.
  var isBuilt: Bool { state.withLock { $0 != nil } }

  /// The details, built now if they were not yet.
  var value: Details {
    state.withLock { details in
      if let details { return details }
      let built = build()
      details = built
      return built
    }
  }
}
