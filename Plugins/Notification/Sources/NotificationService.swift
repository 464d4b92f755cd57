import NBridgePlugin

/// The plugin's logic: delivery with fallback, schedules with their timers, and the
/// delivered history, all on the loop thread.
@BridgeActor
final class NotificationService {
  /// How many delivered notifications the history keeps (the oldest are dropped).
  static let historyLimit = 100
  /// The longest a timer waits before looking at the wall clock again: the loop's timers run on
  /// the monotonic clock, which stands still while the machine sleeps.
  static let longestWait: Int64 = 60_000

  private let context: PluginContext
  private let store: NotificationStore
  private let now: @BridgeActor () -> Int64
  private let makePresenter: (NotificationService) async -> any NotificationPresenter
  private var presenter: (any NotificationPresenter)?
  private var choosingPresenter: Task<any NotificationPresenter, Never>?
  private var pending: [String: StoredNotification] = [:]
  private var timers: [String: LoopTimer] = [:]
  private var hold: KeepAlive?
  private var delivered: [StoredNotification]?

  /// A service for `context`; `presenter` picks where notifications go on first delivery.
  init(
    context: PluginContext, now: (@BridgeActor () -> Int64)? = nil,
    presenter: ((NotificationService) async -> any NotificationPresenter)? = nil
  ) {
    self.context = context
    self.store = NotificationStore(directory: context.dataDirectory) { [context] in context.warn($0) }
    self.now = now ?? { [unowned context] in context.wallClockMilliseconds }
    self.makePresenter = presenter ?? { await $0.choosePresenter() }
  }

  // MARK: - Actions

  /// Delivers `notification` now; returns once it reached the desktop (or stderr) and the history.
  func show(_ notification: StoredNotification) async {
    await deliver(notification)
  }

  /// Adds (or replaces, by id) a pending schedule; returns once it is saved. `unavailable` when
  /// `NotificationLimits.pending` are pending already.
  func schedule(_ notification: StoredNotification) async throws {
    if pending[notification.id] == nil, pending.count >= NotificationLimits.pending {
      throw BridgeError.unavailable(
        "\(NotificationLimits.pending) notifications are pending already, the most there may be (cancel one first)")
    }
    pending[notification.id] = notification
    arm(notification)
    await store.save(pendingList, to: store.pendingPath)
  }

  /// Cancels a pending schedule and takes the notification off the desktop;
  /// `not_found` when the id is neither pending, showing nor delivered.
  func cancel(id: String) async throws {
    let wasPending = pending.removeValue(forKey: id) != nil
    timers.removeValue(forKey: id)?.cancel()
    let wasShowing = await presenter?.dismiss(id: id) ?? false
    if wasPending {
      updateHold()
      await store.save(pendingList, to: store.pendingPath)
    } else if !wasShowing && !history.contains(where: { $0.id == id }) {
      throw BridgeError.notFound("no notification has the id \(QuotedValue.text(id))")
    }
  }

  /// The pending schedules, soonest first.
  var pendingList: [StoredNotification] {
    pending.values.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
  }

  /// The delivered notifications, newest first.
  var history: [StoredNotification] {
    if let delivered { return delivered }
    let loaded = store.load(store.deliveredPath)
    delivered = loaded
    return loaded
  }

  // MARK: - Lifecycle

  /// Re-arms the schedules saved by earlier runs; those that fell due meanwhile fire once, right after the script starts.
  func start() {
    for notification in store.load(store.pendingPath) {
      pending[notification.id] = notification
      arm(notification)
    }
  }

  /// Stops the timers and waits for the files to be written; pending schedules stay saved for the next run.
  func stop() async {
    for timer in timers.values { timer.cancel() }
    timers = [:]
    hold?.release()
    hold = nil
    await store.flush()
  }

  // MARK: - Scheduling

  private func arm(_ notification: StoredNotification) {
    timers.removeValue(forKey: notification.id)?.cancel()
    let delay = Double(min(max(0, notification.at - now()), Self.longestWait)) / 1000
    timers[notification.id] = context.setTimer(after: delay) { [weak self] in self?.fire(notification.id) }
    updateHold()
  }

  private func fire(_ id: String) {
    timers[id] = nil
    guard var notification = pending[id] else { return }
    let time = now()
    guard time >= notification.at else { return arm(notification) }
    if let every = notification.every {
      let next = nextOccurrence(start: notification.at, every: every, after: time)
      pending[id]?.at = next
      notification.at = next - every
      arm(pending[id]!)
    } else {
      pending[id] = nil
      updateHold()
    }
    store.saveSoon(pendingList, to: store.pendingPath)
    let hold = context.keepAlive("notification \(id) being delivered")
    Task {
      await deliver(notification)
      hold.release()
    }
  }

  private func updateHold() {
    if pending.isEmpty {
      hold?.release()
      hold = nil
    } else if hold == nil {
      hold = context.keepAlive("pending notification schedules")
    }
  }

  // MARK: - Delivery

  private func deliver(_ notification: StoredNotification) async {
    let target = await currentPresenter()
    do {
      try await target.present(notification)
    } catch {
      if presenter === target {
        context.warn("the notification server stopped answering (\(error)); notifications go to stderr from now on")
        presenter = StderrNotifications(appName: context.manifest.name)
      }
      try? await presenter?.present(notification)
    }
    var record = notification
    record.deliveredAt = now()
    var list = history
    list.insert(record, at: 0)
    if list.count > Self.historyLimit { list.removeLast(list.count - Self.historyLimit) }
    delivered = list
    store.saveSoon(list, to: store.deliveredPath)
    context.emit("received", record.record)
  }

  private func currentPresenter() async -> any NotificationPresenter {
    if let presenter { return presenter }
    if let choosingPresenter { return await choosingPresenter.value }
    let task = Task { await makePresenter(self) }
    choosingPresenter = task
    let chosen = await task.value
    if presenter == nil { presenter = chosen }
    choosingPresenter = nil
    return presenter!
  }

  /// The desktop's notification server when this run may use it and one answers on the session bus, else stderr.
  func choosePresenter() async -> any NotificationPresenter {
    let headless = StderrNotifications(appName: context.manifest.name)
    guard !context.headless, let address = context.environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty,
      let mainContext = context.glibMainContext
    else { return headless }
    let events = PresenterEvents(
      action: { [weak self] in self?.context.emit("action", $0) },
      closed: { [weak self] in self?.context.emit("closed", $0) })
    do {
      return try await DesktopNotifications.connect(
        address: address, mainContext: mainContext, appName: context.manifest.name, desktopEntry: context.manifest.id,
        events: events) ?? headless
    } catch {
      context.warn("cannot reach the session bus (\(error)); notifications go to stderr")
      return headless
    }
  }
}
