import Dispatch
import NBridgePlugin

/// The store of one data directory as the loop sees it: reads at once, writes
/// grouped into few transactions on a writer thread.
///
/// A write is queued and its call suspends; the first write of a loop turn posts a
/// flush to the end of the turn, which commits every queued write in ONE transaction
/// on the writer thread and then resumes them all. Writes queued while a commit runs
/// go into the next one, so 10,000 `set`s fired at once take a handful of
/// transactions. Reads see queued writes at once (read-your-writes). `storage` and
/// `preference` share the engine of their data directory, so they see one store.
@BridgeActor
final class StorageEngine {
  /// The database file.
  let path: String
  /// How many transactions have finished (for tests of the grouping).
  private(set) var transactionCount = 0

  private let openStore: @Sendable (String) throws -> any KeyValueStore
  private var store: (any KeyValueStore)?
  private var pending = PendingWrites()
  private var queued: [StoreWrite] = []
  private var queuedWaiters: [CheckedContinuation<Void, any Error>] = []
  private var lastSequence: UInt64 = 0
  private var inFlight: InFlight?
  private var flushPosted = false
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  private let writerQueue = DispatchQueue(label: "nbridge.storage.writer")

  /// A commit running on the writer thread: the writes up to `through`, and who waits for it.
  private struct InFlight {
    var through: UInt64
    var waiters: [CheckedContinuation<Void, any Error>]
  }

  /// The file name of the database inside the data directory.
  static let fileName = "storage.sqlite"

  /// An engine for the database at `path`, opened on first use with `openStore`.
  init(path: String, openStore: @escaping @Sendable (String) throws -> any KeyValueStore = SQLiteKeyValueStore.init) {
    self.path = path
    self.openStore = openStore
  }

  private static var engines: [String: Weak] = [:]
  private struct Weak { weak var engine: StorageEngine? }

  /// The engine of `dataDirectory`, shared by every plugin of this process that uses it.
  static func shared(dataDirectory: String) -> StorageEngine {
    let path = dataDirectory.hasSuffix("/") ? dataDirectory + fileName : dataDirectory + "/" + fileName
    if let engine = engines[path]?.engine { return engine }
    let engine = StorageEngine(path: path)
    engines = engines.filter { $0.value.engine != nil }
    engines[path] = Weak(engine: engine)
    return engine
  }

  /// The value of `key` in `group`, or nil when there is none.
  func value(forKey key: String, group: String) throws -> JSONValue? {
    let json: String?
    switch pending.lookup(key: key, group: group) {
    case .json(let text): json = text
    case .absent: json = nil
    case .unknown: json = try openedStore().value(forKey: key, group: group)
    }
    guard let json else { return nil }
    do {
      return try JSONValue(parsing: json)
    } catch {
      throw BridgeError.unavailable("the storage database \(path) holds damaged JSON for \"\(key)\": \(error)")
    }
  }

  /// The keys of `group`, in the order of their UTF-8 bytes.
  func keys(group: String) throws -> [String] {
    pending.keys(group: group, stored: try openedStore().keys(group: group))
  }

  /// Queues `write` and returns once the transaction holding it has committed.
  func write(_ write: StoreWrite) async throws {
    _ = try openedStore()
    lastSequence += 1
    pending.record(write, sequence: lastSequence)
    queued.append(write)
    if inFlight == nil && !flushPosted {
      flushPosted = true
      PluginContext.post { [self] in
        flushPosted = false
        commitQueued()
      }
    }
    try await withCheckedThrowingContinuation { queuedWaiters.append($0) }
  }

  /// Commits everything queued and waits until nothing is pending (for `stop()`).
  func flush() async {
    while inFlight != nil || !queued.isEmpty {
      if inFlight == nil { commitQueued() }
      await withCheckedContinuation { idleWaiters.append($0) }
    }
  }

  private func openedStore() throws -> any KeyValueStore {
    if let store { return store }
    let opened = try openStore(path)
    store = opened
    return opened
  }

  /// Hands every queued write to the writer thread as one transaction.
  private func commitQueued() {
    guard inFlight == nil, !queued.isEmpty, let store else { return }
    let writes = queued
    let through = lastSequence
    inFlight = InFlight(through: through, waiters: queuedWaiters)
    queued = []
    queuedWaiters = []
    writerQueue.async {
      let result = Result { try store.apply(writes) }
      PluginContext.post { [self] in finish(through: through, result) }
    }
  }

  /// Settles the calls of a finished transaction and starts the next one.
  private func finish(through: UInt64, _ result: Result<Void, any Error>) {
    guard let done = inFlight, done.through == through else { return }
    inFlight = nil
    transactionCount += 1
    pending.forget(through: through)
    for waiter in done.waiters { waiter.resume(with: result) }
    commitQueued()
    if inFlight == nil {
      let waiters = idleWaiters
      idleWaiters = []
      for waiter in waiters { waiter.resume() }
    }
  }
}
