import NBridgePlugin

/// The app-wide budget of background time and the tasks that spend it.
///
/// The budget counts from entering background until the app is active again (a spell of
/// `inactive` in between does not reset it). With `warningLead` left, each open task hears
/// `expiration`; at zero the tasks still open are ended, one stderr line each, and the app
/// suspends; `begin` then rejects `unavailable` until the app is active again.
@BridgeActor
final class TaskBudget {
  /// iOS's ten minutes.
  static let defaultSeconds = 600.0

  private struct OpenTask {
    var name: String?
    var awake: AwakeHold
    var alive: KeepAlive
  }

  /// The budget in seconds, as the manifest gives it (for messages).
  let seconds: Double
  private let budget: Duration
  private let context: PluginContext
  private var tasks: [Int: OpenTask] = [:]
  private var nextID = 1
  /// When the budget started counting, on the run's clock; nil while it is not.
  private var startedAt: LoopInstant?
  private var spent = false
  private var timers: [LoopTimer] = []
  private var observation: LifecycleObservation?

  init(seconds: Double, context: PluginContext) {
    self.seconds = seconds
    budget = Duration(clampingSeconds: seconds)
    self.context = context
    observation = context.lifecycle.observe { [weak self] change in self?.stateChanged(change) }
    if context.lifecycle.state == .background { stateChanged(AppStateChange(from: .active, to: .background)) }
  }

  /// With this much left, open tasks hear `expiration`: 5 s, or half the budget under 10 s.
  var warningLead: Duration { budget < .seconds(10) ? budget / 2 : .seconds(5) }

  /// Opens a task; its id.
  func begin(name: String?) throws(BridgeError) -> Int {
    if context.lifecycle.state == .background, spent {
      throw BridgeError.unavailable(
        "the background budget of \(seconds.formatted)s is spent; tasks can begin again once the app is active")
    }
    let id = nextID
    nextID += 1
    let label = name.map { "background task \(id) (\($0))" } ?? "background task \(id)"
    tasks[id] = OpenTask(name: name, awake: context.lifecycle.holdAwake(label), alive: context.keepAlive(label))
    return id
  }

  /// Ends an open task.
  func end(id: Int) throws(BridgeError) {
    guard let task = tasks.removeValue(forKey: id) else {
      throw BridgeError.notFound("no open task with id \(id)")
    }
    release(task)
  }

  /// Seconds left while in background, else nil.
  func remaining() -> Double? {
    guard context.lifecycle.state == .background, let startedAt else { return nil }
    return max(0, (budget - (context.now - startedAt)).inSeconds)
  }

  /// Ends every task without a word (the run is ending).
  func endAll() {
    for (_, task) in tasks { release(task) }
    tasks.removeAll()
    cancelTimers()
  }

  private func stateChanged(_ change: AppStateChange) {
    switch change.to {
    case .background:
      if startedAt == nil { startedAt = context.now }
      schedule()
    case .active:
      startedAt = nil
      spent = false
      cancelTimers()
    case .inactive:
      cancelTimers()
    }
  }

  /// Timers for the warning and the end, from when the budget started.
  private func schedule() {
    cancelTimers()
    guard let startedAt else { return }
    let elapsed = context.now - startedAt
    let warnAt = budget - warningLead - elapsed
    if warnAt >= .zero { timers.append(context.setTimer(after: warnAt) { [weak self] in self?.warn() }) }
    timers.append(context.setTimer(after: max(.zero, budget - elapsed)) { [weak self] in self?.expire() })
  }

  private func warn() {
    for (id, task) in tasks.sorted(by: { $0.key < $1.key }) {
      context.emit("expiration", ExpirationPayload(id: id, name: task.name))
    }
  }

  private func expire() {
    spent = true
    for (id, task) in tasks.sorted(by: { $0.key < $1.key }) {
      let name = task.name.map { " (\($0))" } ?? ""
      context.warn("task \(id)\(name) ended: the background budget of \(seconds.formatted)s is spent")
      release(task)
    }
    tasks.removeAll()
  }

  private func release(_ task: OpenTask) {
    task.awake.release()
    task.alive.release()
  }

  private func cancelTimers() {
    for timer in timers { timer.cancel() }
    timers.removeAll()
  }
}

/// `expiration`'s payload.
struct ExpirationPayload: Encodable {
  var id: Int
  var name: String?

  /// `name` is null, not absent, for a task begun without one.
  func encode(to encoder: any Encoder) throws {
    var fields = encoder.container(keyedBy: Field.self)
    try fields.encode(id, forKey: .id)
    try fields.encode(name, forKey: .name)
  }

  private enum Field: String, CodingKey { case id, name }
}

extension Double {
  /// Whole numbers without a fraction (600, not 600.0).
  var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
