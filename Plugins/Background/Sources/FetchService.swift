import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// Background fetch for one run: the interval and backoff kept in `background.json`, the one
/// pending fetch with its deadline, its answer (the first wins), and the wake-up for the next.
@BridgeActor
final class FetchService {
  private let context: PluginContext
  private let store: FetchStore
  private let now: () -> Int64
  private let floor: Double
  /// Seconds a fetch may take to answer, listener included (`background.fetchTimeLimit`).
  let timeLimit: Double
  private lazy var state: FetchState = store.load { [context] in context.warn($0) }
  private lazy var waker = FetchWaker(appID: context.manifest.id, environment: context.environment)
  private var pending: PendingFetch?

  /// The service for `context`; `now` is the wall clock in milliseconds.
  init(context: PluginContext, now: @escaping () -> Int64 = ISO8601.currentMilliseconds) {
    self.context = context
    self.now = now
    store = FetchStore(directory: context.dataDirectory)
    floor = FetchInterval.floor(environment: context.environment)
    timeLimit = context.manifest.background?.fetchTimeLimit ?? 30
  }

  // MARK: - Actions

  /// `setMinimumFetchInterval`: saves the interval and moves the next wake-up; returns the status.
  func setInterval(_ option: JSONValue) throws -> JSONValue {
    let interval = try FetchInterval(option: option, floor: floor)
    if interval.seconds != state.interval || (interval.seconds != nil && state.nextFetchAt == nil) {
      state.interval = interval.seconds
      if let seconds = interval.seconds {
        let last = state.history.last.flatMap { ISO8601.parse($0.startedAt) } ?? now()
        state.nextFetchAt = last + Int64(state.backoff.delay(interval: seconds) * 1000)
      } else {
        state.nextFetchAt = nil
      }
      try save()
      try waker.schedule(dueAt: state.nextFetchAt, interval: state.interval)
    }
    return status(historyIncluded: false)
  }

  /// `completeFetch`: true when this answer ended the fetch, false when an earlier one had.
  func complete(id: Int, result: FetchResult) throws -> Bool {
    if let pending, pending.id == id {
      finish(pending, result: result, late: false)
      return true
    }
    guard id >= 1, id < state.nextID else { throw BridgeError.notFound("no fetch has the id \(id)") }
    return false
  }

  /// `getFetchStatus`: `{interval, nextFetchAt, history}` (history newest first).
  func status(historyIncluded: Bool = true) -> JSONValue {
    var status: JSONValue = [
      "interval": state.interval.map { .number($0) } ?? "never",
      "nextFetchAt": state.nextFetchAt.map { .string(ISO8601.format(milliseconds: $0)) } ?? .null,
    ]
    if historyIncluded, case .object(var fields) = status {
      fields["history"] = (try? JSONValueEncoder().encode(Array(state.history.reversed()))) ?? .array([])
      status = .object(fields)
    }
    return status
  }

  // MARK: - Delivery

  /// Delivers one fetch for `reason` (`schedule` or `simulated`) and tells `observer` how it
  /// ended; `unavailable` while another is pending.
  @discardableResult
  func deliver(reason: String, observer: (@BridgeActor (FetchHistoryEntry) -> Void)? = nil) throws -> Int {
    if pending != nil { throw BridgeError.unavailable("a fetch is already pending") }
    let start = now()
    let fetch = PendingFetch(
      id: state.nextID, reason: reason, startedAt: start, deadline: start + Int64(timeLimit * 1000))
    state.nextID += 1
    try? save()
    if let observer { fetch.observers.append(observer) }
    fetch.hold = context.keepAlive("background fetch \(fetch.id)")
    fetch.awake = context.lifecycle.holdAwake("background fetch \(fetch.id)")
    fetch.timer = context.setTimer(after: timeLimit) { [weak self, weak fetch] in
      guard let self, let fetch, self.pending === fetch else { return }
      self.finish(fetch, result: .failed, late: true)
    }
    pending = fetch
    if context.listenerCount("fetch") > 0 { emit(fetch) }
    return fetch.id
  }

  /// A fetch the scheduler woke the app for: skipped while the app is active (the schedule
  /// moves on) or while one is pending; returns whether it was delivered.
  func scheduledFetchArrived(observer: (@BridgeActor (FetchHistoryEntry) -> Void)? = nil) -> Bool {
    guard pending == nil else { return false }
    if context.lifecycle.state == .active {
      if let interval = state.interval {
        state.nextFetchAt = now() + Int64(state.backoff.delay(interval: interval) * 1000)
        try? save()
        reschedule()
      }
      return false
    }
    return (try? deliver(reason: "schedule", observer: observer)) != nil
  }

  /// The run is ending: a pending fetch ends `failed` for whoever waits on it (not recorded).
  func endPending() {
    guard let fetch = pending else { return }
    pending = nil
    fetch.close()
    let entry = FetchHistoryEntry(
      id: fetch.id, reason: fetch.reason, result: .failed, late: false,
      startedAt: ISO8601.format(milliseconds: fetch.startedAt), duration: Int(max(0, now() - fetch.startedAt)))
    for observer in fetch.observers { observer(entry) }
  }

  /// The `fetch` listeners changed: a fetch waiting for its first listener goes out now.
  func listenersChanged(count: Int) {
    guard count > 0, let pending, !pending.delivered else { return }
    // Not inside addListener's own call: on the loop's next turn.
    _ = context.setTimer(after: 0) { [weak self, weak pending] in
      guard let self, let pending, self.pending === pending, !pending.delivered else { return }
      self.emit(pending)
    }
  }

  private func emit(_ fetch: PendingFetch) {
    fetch.delivered = true
    context.emit("fetch", fetch.payload)
  }

  private func finish(_ fetch: PendingFetch, result: FetchResult, late: Bool) {
    pending = nil
    let entry = FetchHistoryEntry(
      id: fetch.id, reason: fetch.reason, result: result, late: late,
      startedAt: ISO8601.format(milliseconds: fetch.startedAt), duration: Int(max(0, now() - fetch.startedAt)))
    state.append(entry)
    state.backoff.record(result, late: late)
    if let interval = state.interval {
      state.nextFetchAt = fetch.startedAt + Int64(state.backoff.delay(interval: interval) * 1000)
    }
    do { try save() } catch { context.warn("\(error)") }
    reschedule()
    fetch.close()
    for observer in fetch.observers { observer(entry) }
  }

  /// Calls `body` once nothing holds the app awake any more (no background task is open), checking
  /// every 100 ms: only a fetch launch with tasks still open waits here.
  func whenNoTaskIsOpen(_ body: @escaping @BridgeActor () -> Void) {
    guard context.lifecycle.isHeldAwake else { return body() }
    _ = context.setTimer(after: 0.1) { [weak self] in self?.whenNoTaskIsOpen(body) }
  }

  private func reschedule() {
    do {
      try waker.schedule(dueAt: state.nextFetchAt, interval: state.interval)
    } catch {
      context.warn("cannot schedule the next fetch: \(error)")
    }
  }

  private func save() throws { try store.save(state) }

  /// `fetch 7: newData in 120 ms`, what `nbridge simulate fetch` prints.
  static func line(_ entry: FetchHistoryEntry) -> String {
    "fetch \(entry.id): \(entry.result.rawValue)\(entry.late ? " (late)" : "") in \(entry.duration) ms"
  }
}
