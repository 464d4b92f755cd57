import NBridgePlugin

/// The app's callers of one position source: `available` probes, `current` requests and `watch`
/// streams share one session of the source, started for the first and stopped after the last.
@BridgeActor
final class LocationService {
  /// What a caller waits for.
  enum Kind {
    /// `available()`: the source started (then let go).
    case probe
    /// `current()`: one fix.
    case once
    /// `watch()`: every fix until `clearWatch()`.
    case watch
  }

  /// One caller: what it wants and where its answers go.
  struct Caller {
    var kind: Kind
    var accuracy: Accuracy
    /// Each fix (once for `.once`; never for `.probe`).
    var position: @BridgeActor (Position) -> Void
    /// The end: success when the source started (`.probe`) or the watch was cleared; else why not.
    var end: @BridgeActor (Result<Void, BridgeError>) -> Void
  }

  private enum Phase: Equatable {
    case idle, starting, stopping
    case running(Accuracy)
  }

  /// The source every caller shares.
  let source: any PositionSource
  private var callers: [Int: Caller] = [:]
  private var nextID = 1
  private var phase = Phase.idle
  /// The newest fix of the running session: a `current()` during a watch answers with it at once.
  private var latest: Position?
  /// Watches that joined a running session and have had no fix yet.
  private var waitingForFirst: Set<Int> = []

  init(source: any PositionSource) { self.source = source }

  /// Adds a caller, starting the source when it is the first; returns its id for `remove`.
  @discardableResult
  func add(_ caller: Caller) -> Int {
    let id = nextID
    nextID += 1
    if case .running = phase {
      if caller.kind == .probe {
        caller.end(.success(()))
        return id
      }
      if caller.kind == .once, let latest {
        caller.position(latest)
        return id
      }
    }
    callers[id] = caller
    if case .running = phase, caller.kind == .watch, latest != nil {
      // A watch joining a running session starts from the newest fix (unless a newer one
      // reaches it first), as the first watch did.
      waitingForFirst.insert(id)
      PluginContext.post { [weak self] in
        guard let self, self.waitingForFirst.remove(id) != nil, let latest = self.latest else { return }
        self.callers[id]?.position(latest)
      }
    }
    reconcile()
    return id
  }

  /// Takes a caller away without answering it (its call timed out or was cancelled).
  func remove(_ id: Int) {
    guard callers.removeValue(forKey: id) != nil else { return }
    reconcile()
  }

  /// Ends every watch (each resolves); returns how many there were.
  func clearWatches() -> Int {
    let watches = callers.filter { $0.value.kind == .watch }
    for id in watches.keys { callers[id] = nil }
    for (_, watch) in watches.sorted(by: { $0.key < $1.key }) { watch.end(.success(())) }
    reconcile()
    return watches.count
  }

  /// Whether a session of the source is running (for tests).
  var isRunning: Bool { if case .running = phase { true } else { false } }

  /// Stops the source and rejects whoever still waits: the run is ending.
  func close() async {
    let left = callers.values
    callers = [:]
    for caller in left { caller.end(.failure(.unavailable("the run is ending"))) }
    await source.close()
    phase = .idle
  }

  /// The finest accuracy any caller asks for.
  private var wanted: Accuracy? { callers.values.map(\.accuracy).max() }

  /// Moves the source toward what the callers need: started when there are some, stopped when
  /// none; one move at a time, the next decided when it ends.
  private func reconcile() {
    switch phase {
    case .idle:
      guard let accuracy = wanted else { return }
      phase = .starting
      let sink = PositionSink(
        position: { [weak self] in self?.deliver($0) }, failure: { [weak self] in self?.sourceFailed($0) })
      Task {
        do {
          try await source.start(accuracy: accuracy, sink: sink)
          phase = .running(accuracy)
          let probes = callers.filter { $0.value.kind == .probe }
          for id in probes.keys { callers[id] = nil }
          for probe in probes.values { probe.end(.success(())) }
        } catch {
          phase = .idle
          rejectAll(error as? BridgeError ?? .unavailable("\(error)"))
        }
        reconcile()
      }
    case .running(let current):
      guard let accuracy = wanted else {
        phase = .stopping
        latest = nil
        Task {
          await source.stop()
          phase = .idle
          reconcile()
        }
        return
      }
      if accuracy > current {
        phase = .running(accuracy)
        Task { await source.refine(to: accuracy) }
      }
    case .starting, .stopping:
      return
    }
  }

  /// A fix from the source, which may come before its `start` has returned.
  private func deliver(_ position: Position) {
    switch phase {
    case .running, .starting: break
    case .idle, .stopping: return
    }
    latest = position
    // A caller's answer may run JS that adds or clears callers: each is looked up afresh.
    for id in callers.keys.sorted() {
      guard let caller = callers[id], caller.kind != .probe else { continue }
      waitingForFirst.remove(id)
      if caller.kind == .once { callers[id] = nil }
      caller.position(position)
    }
    reconcile()
  }

  /// The running source lost its backend: it counts as stopped, and every caller is rejected.
  private func sourceFailed(_ error: BridgeError) {
    guard case .running = phase else { return }
    phase = .idle
    latest = nil
    rejectAll(error)
  }

  private func rejectAll(_ error: BridgeError) {
    let failed = callers.sorted { $0.key < $1.key }
    callers = [:]
    for (_, caller) in failed { caller.end(.failure(error)) }
  }
}
