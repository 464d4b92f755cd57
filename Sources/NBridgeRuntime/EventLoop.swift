import CJavaScriptCore
import Glibc
import NBridgePlugin

/// The runtime's loop: posted jobs, timers (deadline then insertion order), descriptor
/// watches and the GLib main context, all on one thread; JSC drains microtasks after
/// every callback it runs. JS timers sit in a queue of their own that stops while the app is
/// suspended (`jsTimersFrozen`): nothing wakes the loop for them, and they fire, in order, after.
@BridgeActor
package final class EventLoop {
  private struct TimerRecord {
    var body: @BridgeActor () -> Void
    var interval: Duration?
    var keepsAlive: Bool
  }

  private var timers = TimerQueue()
  private var jsTimers = TimerQueue()
  /// While set, JS timers neither fire nor wake the loop (a suspended app); native timers go on.
  var jsTimersFrozen = false
  private var timerRecords: [Int: TimerRecord] = [:]
  private var aliveTimers = 0
  /// By id, ascending (ids grow, a watch is appended). A list, not a dictionary keyed by id: a
  /// run makes its first watch at start, and a dictionary of these made its storage type at run
  /// time there (about 0.28 M instructions of each start under callgrind).
  private var watches: [(id: Int, fd: Int32, events: Int16, body: @BridgeActor () -> Void)] = []
  private var holds: [Int: String] = [:]
  private var nextID = 1
  /// The GLib main context this loop iterates.
  let glib: OpaquePointer?
  private var glibFDs: [GPollFD] = Array(repeating: GPollFD(), count: 16)
  /// Extra descriptors the loop always polls (signals), with their handlers.
  var alwaysPolled: [(fd: Int32, body: @BridgeActor () -> Void)] = []
  /// Set to leave the loop at the next turn.
  package var stopRequested = false
  /// Whether something outside the loop's own records keeps the run alive (pending native calls).
  var externalWork: @BridgeActor () -> Bool = { false }

  /// The time timers go by.
  package let clock: any LoopClock

  /// A loop over GLib's default main context, reading `clock`; the thread that runs it owns that
  /// context for the run (see `Runtime.runOnThisThread`).
  init(clock: any LoopClock) {
    self.clock = clock
    glib = g_main_context_default()
  }

  private func makeID() -> Int {
    defer { nextID += 1 }
    return nextID
  }

  // MARK: Timers

  /// Schedules `body` after `delay` (then every `interval`); JS timers keep the run alive.
  package func addTimer(delay: Duration, interval: Duration?, keepsAlive: Bool, _ body: @escaping @BridgeActor () -> Void) -> Int {
    let id = makeID()
    timerRecords[id] = TimerRecord(body: body, interval: interval, keepsAlive: keepsAlive)
    if keepsAlive { aliveTimers += 1 }
    schedule(id, at: clock.now() + delay, keepsAlive: keepsAlive)
    return id
  }

  /// Puts timer `id` in its queue: JS timers (they keep the run alive) in the one a suspended app freezes.
  private func schedule(_ id: Int, at deadline: LoopInstant, keepsAlive: Bool) {
    if keepsAlive { jsTimers.insert(id: id, deadline: deadline) } else { timers.insert(id: id, deadline: deadline) }
  }

  /// Cancels a timer (its queue drops it when it surfaces); unknown or fired ids are ignored.
  package func cancelTimer(_ id: Int) {
    guard let record = timerRecords.removeValue(forKey: id) else { return }
    if record.keepsAlive { aliveTimers -= 1 }
  }

  /// Whether timer `id` is still scheduled (not cancelled, not fired once and for all).
  private func isLive(_ id: Int) -> Bool { timerRecords[id] != nil }

  // MARK: Watches and holds

  /// Calls `body` whenever `fd` is readable (or, with `events: POLLOUT`, writable), or has hung up.
  package func watch(_ fd: Int32, events: Int16 = Int16(POLLIN), _ body: @escaping @BridgeActor () -> Void) -> Int {
    let id = makeID()
    watches.append((id, fd, events, body))
    return id
  }

  /// Stops a watch.
  package func cancelWatch(_ id: Int) {
    if let index = watchIndex(id) { watches.remove(at: index) }
  }

  /// Where watch `id` is in `watches` (a binary search: the ids ascend), nil once cancelled.
  private func watchIndex(_ id: Int) -> Int? {
    var low = 0
    var high = watches.count
    while low < high {
      let middle = (low + high) / 2
      if watches[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < watches.count && watches[low].id == id ? low : nil
  }

  /// Keeps the run alive until released.
  package func hold(_ reason: String) -> Int {
    let id = makeID()
    holds[id] = reason
    return id
  }

  /// Releases a hold.
  package func release(_ id: Int) { holds[id] = nil }

  /// Whether anything keeps the run alive: queued jobs, JS timers, holds, pending native calls.
  var isAlive: Bool {
    LoopExecutor.shared.hasWork || aliveTimers > 0 || !holds.isEmpty || externalWork()
  }

  // MARK: Turning

  /// Turns the loop until `done()` holds, the loop is stopped, or (when `whileAlive`) nothing keeps it alive.
  package func run(whileAlive: Bool = true, until done: @BridgeActor () -> Bool = { false }) {
    while !stopRequested && !done() {
      runDueTimers()
      if stopRequested || done() { return }
      LoopExecutor.shared.runQueued()
      if stopRequested || done() { return }
      if whileAlive && !isAlive { return }
      // Work queued again (a call answered in this turn started another): the next turn runs
      // it without a poll(2) and GLib's prepare/query/check, up to `turnsBetweenPolls` turns in
      // a row, so descriptors, GLib sources and signals are still looked at within a few turns.
      if turnsWithoutPoll < Self.turnsBetweenPolls && LoopExecutor.shared.hasWork {
        turnsWithoutPoll += 1
        continue
      }
      turnsWithoutPoll = 0
      wait()
    }
  }

  /// How many turns in a row may run queued work without polling.
  static let turnsBetweenPolls = 8
  /// Turns run since the last poll.
  private var turnsWithoutPoll = 0

  /// Runs posted work only (no timers, descriptors or GLib) until `done()` holds: what a scoped
  /// run does once the script has ended, so its caller can still look at it.
  package func runJobs(until done: @BridgeActor () -> Bool) {
    while !done() {
      if LoopExecutor.shared.runQueued() > 0 { continue }
      var fd = pollfd(fd: LoopExecutor.shared.wakeDescriptor, events: Int16(POLLIN), revents: 0)
      if poll(&fd, 1, -1) > 0 { LoopExecutor.shared.drainWakeups() }
    }
  }

  /// The earliest due timer of either queue (native first on a tie), leaving frozen JS timers alone.
  private func popDue(now: LoopInstant) -> Int? {
    let jsNext = jsTimersFrozen ? nil : jsTimers.nextDeadline(isLive: isLive)
    if let native = timers.nextDeadline(isLive: isLive), native <= now, native <= jsNext ?? LoopInstant(nanoseconds: .max) {
      return timers.popDue(now: now, isLive: isLive)
    }
    return jsTimersFrozen ? nil : jsTimers.popDue(now: now, isLive: isLive)
  }

  /// The next deadline the loop must wake for.
  func nextDeadline() -> LoopInstant? {
    let native = timers.nextDeadline(isLive: isLive)
    guard !jsTimersFrozen, let js = jsTimers.nextDeadline(isLive: isLive) else { return native }
    return min(native ?? js, js)
  }

  /// Runs every timer due by the clock's time now, in order (one that a timer adds is not due
  /// before the next turn, even with a zero delay).
  func runDueTimers() {
    let now = clock.now()
    while let id = popDue(now: now) {
      guard let record = timerRecords[id] else { continue }
      if let interval = record.interval {
        schedule(id, at: max(now, clock.now()) + max(interval, .nanoseconds(1)), keepsAlive: record.keepsAlive)
      } else {
        timerRecords[id] = nil
        if record.keepsAlive { aliveTimers -= 1 }
      }
      record.body()
      if stopRequested { return }
    }
  }

  /// Moves a clock that does not pass by itself to `target`: each timer due on the way fires at
  /// its own deadline, in order (the clock reads that deadline while it runs), and what it queued
  /// on the loop runs before the next; then the clock reads `target`. `set` moves the clock.
  package func advance(to target: LoopInstant, setting set: @BridgeActor (LoopInstant) -> Void) async {
    while !stopRequested, let next = nextDeadline(), next <= target {
      if next > clock.now() { set(next) }
      runDueTimers()
      await runQueuedWork()
    }
    if clock.now() < target { set(target) }
    await runQueuedWork()
  }

  /// Lets the loop run what is queued (and what that queues, a few rounds deep) before going on.
  private func runQueuedWork() async {
    var rounds = 0
    while LoopExecutor.shared.hasWork && rounds < 64 {
      await Task.yield()
      rounds += 1
    }
  }

  /// Blocks in poll(2) until a descriptor is ready, the next timer is due, or GLib has work.
  private func wait() {
    var maxPriority: gint = 0
    _ = g_main_context_prepare(glib, &maxPriority)
    var glibTimeout: gint = -1
    var count = Int(g_main_context_query(glib, maxPriority, &glibTimeout, &glibFDs, gint(glibFDs.count)))
    if count > glibFDs.count {
      glibFDs = Array(repeating: GPollFD(), count: count)
      count = Int(g_main_context_query(glib, maxPriority, &glibTimeout, &glibFDs, gint(glibFDs.count)))
    }

    var fds: [pollfd] = []
    fds.reserveCapacity(count + 2 + watches.count + alwaysPolled.count)
    for i in 0..<count { fds.append(pollfd(fd: glibFDs[i].fd, events: Int16(glibFDs[i].events), revents: 0)) }
    fds.append(pollfd(fd: LoopExecutor.shared.wakeDescriptor, events: Int16(POLLIN), revents: 0))
    let watchList = watches
    for w in watchList { fds.append(pollfd(fd: w.fd, events: w.events, revents: 0)) }
    for p in alwaysPolled { fds.append(pollfd(fd: p.fd, events: Int16(POLLIN), revents: 0)) }

    var timeout: Int32 = -1
    if LoopExecutor.shared.hasWork {
      timeout = 0
    } else if let deadline = nextDeadline() {
      // A clock that does not pass by itself: only a timer already due keeps poll(2) from blocking.
      let now = clock.now()
      let nanos = deadline.nanoseconds &- now.nanoseconds
      if deadline <= now {
        timeout = 0
      } else if clock.passesByItself {
        timeout = Int32(min((nanos + 999_999) / 1_000_000, 1 << 30))
      }
    }
    if glibTimeout >= 0 && (timeout < 0 || glibTimeout < timeout) { timeout = glibTimeout }

    let ready = poll(&fds, nfds_t(fds.count), timeout)
    for i in 0..<count { glibFDs[i].revents = gushort(bitPattern: fds[i].revents) }
    if g_main_context_check(glib, maxPriority, &glibFDs, gint(count)) != 0 {
      g_main_context_dispatch(glib)
    }
    guard ready > 0 else { return }
    if fds[count].revents != 0 { LoopExecutor.shared.drainWakeups() }
    var index = count + 1
    for w in watchList {
      if fds[index].revents != 0 && watchIndex(w.id) != nil { w.body() }
      index += 1
    }
    for p in alwaysPolled {
      if fds[index].revents != 0 { p.body() }
      index += 1
    }
  }
}
