import Foundation
import NBridgePlugin
@testable import NBridgePasteboard

/// A minimal event loop for these tests until the runtime's harness exists: a thread bound
/// to `LoopExecutor.shared` that polls the executor's wake pipe, the watched descriptors
/// and the nearest timer — the same contract the runtime's loop gives plugins.
@BridgeActor
final class TestLoop {
  /// The one loop of the test process (`BridgeActor` has one executor).
  nonisolated static let shared: TestLoop = {
    let loop = TestLoop()
    let thread = Thread {
      LoopExecutor.shared.bindToCurrentThread()
      while true { BridgeActor.assumeIsolated { loop.turn() } }
    }
    thread.name = "nbridge-test-loop"
    thread.start()
    return loop
  }()

  private var nextID = 1

  /// Starts the loop thread (before any `@BridgeActor` code runs, which needs it).
  nonisolated static func start() { _ = shared }
  private var watches: [Int: (fd: Int32, body: @BridgeActor () -> Void)] = [:]
  private var timers: [Int: (deadline: Double, repeating: Double?, body: @BridgeActor () -> Void)] = [:]

  nonisolated init() {}

  func addTimer(after seconds: Double, repeating: Double?, _ body: @escaping @BridgeActor () -> Void) -> Int {
    nextID += 1
    timers[nextID] = (now() + seconds, repeating, body)
    return nextID
  }
  func cancelTimer(_ id: Int) { timers[id] = nil }
  func watchReadable(_ fd: Int32, _ body: @escaping @BridgeActor () -> Void) -> Int {
    nextID += 1
    watches[nextID] = (fd, body)
    return nextID
  }
  func cancelWatch(_ id: Int) { watches[id] = nil }

  /// One turn: wait for the wake pipe, a watched descriptor or the next timer, then run what is due.
  fileprivate func turn() {
    let executor = LoopExecutor.shared
    var fds = [pollfd(fd: executor.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
    let ids = Array(watches.keys)
    for id in ids { fds.append(pollfd(fd: watches[id]!.fd, events: Int16(POLLIN), revents: 0)) }
    let nearest = timers.values.map(\.deadline).min()
    let timeout = nearest.map { Int32(max(0, min(1000, ($0 - now()) * 1000 + 1))) } ?? 1000
    _ = poll(&fds, nfds_t(fds.count), executor.hasWork ? 0 : timeout)
    executor.runQueued()
    for (index, id) in ids.enumerated() where fds[index + 1].revents != 0 {
      watches[id]?.body()
    }
    let due = timers.filter { $0.value.deadline <= now() }
    for (id, timer) in due {
      if let repeating = timer.repeating {
        timers[id]?.deadline = now() + repeating
      } else {
        timers[id] = nil
      }
      timer.body()
    }
  }

  private func now() -> Double { Date().timeIntervalSince1970 }
}

/// One plugin's view of the loop: records its events and keep-alive holds; timers and
/// watches go to the shared loop.
@BridgeActor
final class FixtureHost: PluginHost {
  /// Events emitted so far: (event, payload).
  private(set) var emitted: [(event: String, payload: JSONValue)] = []
  /// Keep-alive holds currently held.
  private(set) var holds: Set<Int> = []
  /// Descriptors this plugin watches now.
  private(set) var watchIDs: Set<Int> = []
  private var nextHold = 0
  private let loop = TestLoop.shared

  /// Forgets recorded events.
  func resetEvents() { emitted.removeAll() }

  func emit(service: String, event: String, payload: JSONValue) { emitted.append((event, payload)) }
  func listenerCount(service: String, event: String) -> Int { 0 }
  func holdRun(reason: String) -> Int {
    nextHold += 1
    holds.insert(nextHold)
    return nextHold
  }
  func releaseRun(_ token: Int) { holds.remove(token) }
  func addTimer(after seconds: Double, repeating: Double?, _ body: @escaping @BridgeActor () -> Void) -> Int {
    loop.addTimer(after: seconds, repeating: repeating, body)
  }
  func cancelTimer(_ id: Int) { loop.cancelTimer(id) }
  func watchReadable(_ fd: Int32, _ body: @escaping @BridgeActor () -> Void) -> Int {
    let id = loop.watchReadable(fd, body)
    watchIDs.insert(id)
    return id
  }
  func cancelWatch(_ id: Int) {
    watchIDs.remove(id)
    loop.cancelWatch(id)
  }
  func requestExit(code: Int32) {}
  func isAllowed(service: String) -> Bool { true }
  var glibMainContext: OpaquePointer? { nil }

  /// The `change` payloads emitted so far.
  var changes: [PasteboardChange] {
    emitted.filter { $0.event == "change" }.compactMap { event in
      guard let count = event.payload["changeCount"]?.numberValue else { return nil }
      return PasteboardChange(name: event.payload["name"]?.stringValue, changeCount: Int(count))
    }
  }
}

/// A pasteboard plugin on the test loop with its own folders and environment.
@BridgeActor
final class PluginFixture {
  let shared: String
  let context: PluginContext
  let instance: PluginInstance
  let host = FixtureHost()
  private let registered = PluginRegistry([PasteboardPlugin.self]).plugin(named: "pasteboard")!

  /// A plugin whose shared folder is `shared` and whose environment is `environment` (headless when asked).
  init(shared: String, environment: [String: String] = [:], headless: Bool = false) throws {
    self.shared = shared
    context = PluginContext(
      service: "pasteboard", manifest: AppManifest(id: "test.pasteboard", name: "test"), dataDirectory: shared,
      sharedDirectory: shared, arguments: [], headless: headless, environment: environment, host: host)
    instance = try registered.instantiate(context: context)
  }

  /// Calls an action as the runtime does: options decoded from JSON, errors as thrown.
  @discardableResult
  func call(_ action: String, _ options: JSONValue = [:]) async throws -> JSONValue {
    let index = registered.actionIndex(action)!
    let call = Call(service: "pasteboard", action: action, context: context, sink: nil)
    switch instance.invocations[index] {
    case .sync(let body): return try body(options, call)
    case .async(let body): return try await body(options, call)
    }
  }

  /// The error a call rejects with (nil if it resolves).
  func error(_ action: String, _ options: JSONValue = [:]) async -> BridgeError? {
    do {
      try await call(action, options)
      return nil
    } catch {
      return error as? BridgeError
    }
  }

  /// Adds or removes listeners as the runtime would report it.
  func listeners(_ count: Int) { instance.object.listenersChanged(event: "change", count: count) }

  /// Stops the plugin.
  func stop() async { await instance.object.stop() }
}

/// Waits (on the loop) until `condition` holds, up to `timeout` seconds; whether it did.
@BridgeActor
func eventually(timeout: Double = 5, _ condition: @BridgeActor () -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return condition()
}
