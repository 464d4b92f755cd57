import Dispatch
import NBridgePlugin

/// The store of one data directory as the loop sees it: reads at once, writes
/// grouped into few transactions, committed on the loop when that cannot block.
///
/// A write is queued with what to do once it is committed; the first write of a loop
/// turn posts a flush to the end of the turn, which commits every queued write in ONE
/// transaction and then answers them all. A script's call that started on its own
/// (`CallStart.together` false: an awaited `set`) with nothing else queued commits in the
/// call instead, and its Promise is answered as the call returns: no loop turn, no answer
/// delivered later (64 in a row at most, then one waits for the end of the turn). The calls
/// a script makes after it in the same turn reach the runtime together (`native.startAll`)
/// and share the turn's transaction. The flush commits right there on the loop when the
/// database's write lock is free (one append to the WAL file, no thread hop); when
/// another process holds it, or the writer thread's checkpoint waits for it, the batch goes
/// to the writer thread, which waits for the lock. A turn that queues `writesCommittedEarly`
/// writes hands them to the writer thread at once, without waiting for the turn to end: a
/// long burst's transactions commit on the writer thread while the script goes on making its
/// calls, in the order they were queued. Writes queued meanwhile go into the next
/// transaction, so 10,000 `set`s fired at once take a handful of transactions. Reads see queued writes at once
/// (read-your-writes). `storage` and `preference` share the engine of their data
/// directory, so they see one store.
@BridgeActor
final class StorageEngine {
  /// The database file.
  let path: String
  /// How many transactions have finished (for tests of the grouping).
  private(set) var transactionCount = 0
  /// How many transactions went to the writer thread because the lock was taken (for tests).
  private(set) var writerThreadCount = 0
  /// How many transactions the writer thread has that have not finished (for tests of a long burst).
  var transactionsOnWriter: Int { inFlight.count }
  /// How many times the writer thread found another connection's lock in its way (an SQLite file's store).
  var writerBusyWaits: Int { (store as? SQLiteKeyValueStore)?.writerBusyWaits ?? 0 }

  private let openStore: @Sendable (String) throws -> any KeyValueStore
  private var store: (any KeyValueStore)?
  private var pending = PendingWrites()
  private var queued: [StoreWrite] = []
  private var queuedDone: [Waiter] = []
  private var lastSequence: UInt64 = 0
  /// The transactions on the writer thread, oldest first (they commit in this order).
  private var inFlight: [InFlight] = []
  private var flushPosted = false
  /// Writes committed in their calls since the last flush at the end of a turn (see below).
  private var commitsInCalls = 0
  /// How many lone writes in a row commit in their calls; the next waits for the end of the
  /// turn, so a script awaiting `set` after `set` still lets the loop run timers and events.
  static let commitsInCallsBetweenTurns = 64
  /// The writer thread has a checkpoint queued or running: the loop commits nothing meanwhile.
  private var checkpointing = false
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  private let writerQueue = DispatchQueue(label: "nbridge.storage.writer")

  /// What a queued write does once its transaction has finished.
  typealias Done = @BridgeActor (Result<Void, any Error>) -> Void

  /// Who waits for a queued write: a call's reply, answered with null (no closure made per call), or a function.
  enum Waiter {
    case reply(Reply<JSONValue>)
    case done(Done)

    @BridgeActor func finished(_ result: Result<Void, any Error>) {
      switch self {
      // A switch, not `result.map { .null }`: that closure checks the executor at each call.
      case .reply(let reply):
        switch result {
        case .success: reply.resolve(.null)
        case .failure(let error): reply.reject(error)
        }
      case .done(let done): done(result)
      }
    }
  }

  /// A commit on the writer thread: the writes up to `through`, and what each does then.
  private struct InFlight {
    var through: UInt64
    var done: [Waiter]
  }

  /// The file name of the database inside the data directory.
  static let fileName = "storage.sqlite"

  /// An engine for the database at `path`, opened on first use with `openStore`.
  init(
    path: String,
    openStore: @escaping @Sendable (String) throws -> any KeyValueStore = { try SQLiteKeyValueStore(path: $0) }
  ) {
    self.path = path
    self.openStore = openStore
  }

  private static var engines: [String: Weak] = [:]
  private struct Weak { weak var engine: StorageEngine? }

  /// The engine of `dataDirectory`'s plain values, or of its secure ones (another table of the
  /// same file), shared by every plugin of this process that uses it.
  static func shared(dataDirectory: String, secure: Bool = false) -> StorageEngine {
    let path = dataDirectory.hasSuffix("/") ? dataDirectory + fileName : dataDirectory + "/" + fileName
    let name = secure ? path + "#secure" : path
    if let engine = engines[name]?.engine { return engine }
    let table = secure ? SQLiteKeyValueStore.secureTable : SQLiteKeyValueStore.plainTable
    let engine = StorageEngine(path: path) { try SQLiteKeyValueStore(path: $0, table: table) }
    engines = engines.filter { $0.value.engine != nil }
    engines[name] = Weak(engine: engine)
    return engine
  }

  /// The stored text of `key` in `group` (JSON, or a sealed value in the secure table), or nil.
  func text(forKey key: String, group: String) throws -> String? {
    switch pending.lookup(key: key, group: group) {
    case .json(let text): text
    case .absent: nil
    case .unknown: try openedStore().value(forKey: key, group: group)
    }
  }

  /// The value of `key` in `group`, or nil when there is none.
  func value(forKey key: String, group: String) throws -> JSONValue? {
    guard let json = try text(forKey: key, group: group) else { return nil }
    do {
      return try JSONValue(parsing: json)
    } catch {
      throw damaged(key, error)
    }
  }

  /// The JSON text of `key`'s value in `group`, checked (not parsed), or nil when there is none.
  func jsonText(forKey key: String, group: String) throws -> String? {
    guard let json = try text(forKey: key, group: group) else { return nil }
    do throws(JSONSyntaxError) { try JSONValue.checkText(json) } catch { throw damaged(key, error) }
    return json
  }

  private func damaged(_ key: String, _ error: JSONSyntaxError) -> BridgeError {
    BridgeError.unavailable("the storage database \(path) holds damaged JSON for \"\(key)\": \(error)")
  }

  /// The keys of `group`, in the order of their UTF-8 bytes.
  func keys(group: String) throws -> [String] {
    pending.keys(group: group, stored: try openedStore().keys(group: group))
  }

  /// Queues `write` (visible to reads at once); `done` runs on the loop once the
  /// transaction holding it has finished. No task, no continuation: the calls of a burst
  /// are answered straight from the commit, on the loop thread.
  func write(_ write: StoreWrite, done: @escaping Done) throws {
    try self.write(write, waiter: .done(done))
  }

  private func write(_ write: StoreWrite, waiter: Waiter, atOnce: Bool = false) throws {
    // Opened unless it is (the store returned would be a copy of the existential: a retain).
    if store == nil { _ = try openedStore() }
    lastSequence += 1
    pending.record(write, sequence: lastSequence)
    queued.append(write)
    queuedDone.append(waiter)
    if queued.count >= Self.writesCommittedEarly, let store {
      // A long burst: what is queued commits on the writer thread now, while the script goes on.
      return commitOnWriter(store)
    }
    if inFlight.isEmpty && !flushPosted {
      if atOnce && queued.count == 1 && commitsInCalls < Self.commitsInCallsBetweenTurns {
        commitsInCalls += 1
        return commitQueued()
      }
      flushPosted = true
      PluginContext.post { [self] in
        flushPosted = false
        commitsInCalls = 0
        commitQueued()
      }
    }
  }

  /// Queues `write` and answers `reply` with null once it is committed (or with the error):
  /// at once, in the call, when the call started on its own and nothing is queued or committing.
  func write(_ write: StoreWrite, answering reply: Reply<JSONValue>) throws {
    try self.write(write, waiter: .reply(reply), atOnce: !CallStart.together)
  }

  /// Queues `write` and returns once the transaction holding it has committed.
  func write(_ write: StoreWrite) async throws {
    try await withCheckedThrowingContinuation { (committed: CheckedContinuation<Void, any Error>) in
      do { try self.write(write) { committed.resume(with: $0) } } catch { committed.resume(throwing: error) }
    }
  }

  /// Commits everything queued and waits until nothing is pending (for `stop()`).
  func flush() async {
    commitQueued()
    while !inFlight.isEmpty {
      await withCheckedContinuation { idleWaiters.append($0) }
      commitQueued()
    }
  }

  private func openedStore() throws -> any KeyValueStore {
    if let store { return store }
    let opened = try openStore(path)
    store = opened
    return opened
  }

  /// Commits every queued write as one transaction: on the loop when the lock is free and no
  /// checkpoint is waiting for it, else on the writer thread. Not while the writer thread has
  /// transactions: the last one's end commits what was queued meanwhile (writes commit in the
  /// order they were queued).
  private func commitQueued() {
    guard inFlight.isEmpty, !queued.isEmpty, let store else { return }
    var writes: [StoreWrite] = []
    var done: [Waiter] = []
    swap(&writes, &queued)
    swap(&done, &queuedDone)
    let through = lastSequence
    let committed: Bool
    do {
      committed = try !checkpointing && store.applyIfUnlocked(writes)
    } catch {
      settle(through: through, done, .failure(error))
      return
    }
    if committed {
      settle(through: through, done, .success(()))
      // The next batch reuses these buffers (a write queued while the answers ran has its own).
      writes.removeAll(keepingCapacity: true)
      done.removeAll(keepingCapacity: true)
      if queued.isEmpty { swap(&writes, &queued) }
      if queuedDone.isEmpty { swap(&done, &queuedDone) }
      if store.checkpointDue { checkpoint(store) }
      return
    }
    writerThreadCount += 1
    onWriter(writes, done, through: through, store)
  }

  /// How many writes queued in a row go to the writer thread as one transaction at once, rather
  /// than at the end of the turn: a burst's first transactions commit while the script is still
  /// making its calls (the loop and the writer thread on two cores).
  /// 512: of 256 to 2,048 (and none), the steadiest quick burst of 3,000 to 30,000 `set`s (10,000:
  /// 2.33-2.56 µs a `set` against 3.26-3.48 with none); a transaction's own cost is small beside 512 writes.
  nonisolated static let writesCommittedEarly = 512

  /// Commits every queued write as one transaction on the writer thread, after those already there.
  private func commitOnWriter(_ store: any KeyValueStore) {
    var writes: [StoreWrite] = []
    var done: [Waiter] = []
    swap(&writes, &queued)
    swap(&done, &queuedDone)
    onWriter(writes, done, through: lastSequence, store)
  }

  private func onWriter(_ writes: [StoreWrite], _ done: [Waiter], through: UInt64, _ store: any KeyValueStore) {
    inFlight.append(InFlight(through: through, done: done))
    writerQueue.async {
      let result = Result { try store.apply(writes) }
      PluginContext.post { [self] in finish(through: through, result) }
    }
  }

  /// Settles the calls of a finished writer-thread transaction and starts the next one.
  private func finish(through: UInt64, _ result: Result<Void, any Error>) {
    guard let done = inFlight.first, done.through == through else { return }
    inFlight.removeFirst()
    settle(through: through, done.done, result)
    commitQueued()
    // A checkpoint waits for the writer thread's last transaction of a burst (it syncs files,
    // and the transactions queued behind it would wait), unless the log has grown far past due.
    if let store, inFlight.isEmpty ? store.checkpointDue : store.checkpointOverdue { checkpoint(store) }
    if inFlight.isEmpty {
      let waiters = idleWaiters
      idleWaiters = []
      for waiter in waiters { waiter.resume() }
    }
  }

  /// Answers the writes of a finished transaction; reads go back to the file for them.
  private func settle(through: UInt64, _ done: [Waiter], _ result: Result<Void, any Error>) {
    transactionCount += 1
    pending.forget(through: through)
    // One transaction, one delivery: its callers' Promises settle in one entry into JS.
    AnswerBatch.run {
      for waiter in done { waiter.finished(result) }
    }
  }

  /// Checkpoints the WAL on the writer thread (it syncs files), one at a time. Until it has
  /// finished, what the loop would commit goes to the writer thread, behind it: the loop's own
  /// commits (an awaited `set` every ~20 µs) kept taking the lock the checkpoint waits for,
  /// whose busy handler sleeps 1, 2, 5, 10... ms between tries, and it took up to ~100 ms
  /// instead of 1-10, while a burst's transactions waited behind it.
  private func checkpoint(_ store: any KeyValueStore) {
    guard !checkpointing else { return }
    checkpointing = true
    writerQueue.async {
      store.checkpoint()
      PluginContext.post { [self] in checkpointing = false }
    }
  }
}
