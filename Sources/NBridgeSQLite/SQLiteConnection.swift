import CSQLite
import Glibc
import Synchronization

/// One connection to an SQLite database file: the only type that opens, runs or closes
/// anything in SQLite's C API (the storage plugin and `localStorage` both use it).
///
/// SQLite is built thread-safe ("serialized") on Debian, so a connection may be
/// handed between threads; each is still used by one thread at a time by design.
package final class SQLiteConnection: @unchecked Sendable {
  /// The database file.
  package let path: String
  private let handle: OpaquePointer
  private var walSize: WALSize?
  private let busy: BusyWait

  /// Opens (and creates) the database at `path` (`sqlite3_open_v2`) and waits up to
  /// `busyTimeout` milliseconds for another connection's lock before failing (`BusyWait`).
  package init(path: String, busyTimeout: Int32) throws(SQLiteError) {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
    let status = sqlite3_open_v2(path, &handle, flags, nil)
    guard let handle else { throw SQLiteError(code: status, message: SQLiteError.noConnectionMessage) }
    guard status == SQLITE_OK else {
      let error = SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
      sqlite3_close_v2(handle)
      throw error
    }
    sqlite3_extended_result_codes(handle, 1)
    busy = BusyWait(timeout: busyTimeout)
    sqlite3_busy_handler(handle, { context, tries in
      Unmanaged<BusyWait>.fromOpaque(context!).takeUnretainedValue().waitAgain(afterTries: tries)
    }, Unmanaged.passUnretained(busy).toOpaque())
    self.path = path
    self.handle = handle
  }

  deinit { sqlite3_close_v2(handle) }

  /// How long a call waits for another connection's lock from now on, in milliseconds (0: not at all).
  package func setBusyTimeout(_ milliseconds: Int32) { busy.timeout.store(milliseconds, ordering: .relaxed) }

  /// How many times a call of this connection found another connection's lock in its way (each
  /// try of a wait counts): what shows a test that a write is waiting on a lock.
  package var busyWaits: Int { busy.waits.load(ordering: .relaxed) }

  /// Stops this connection from checkpointing after its own commits (a checkpoint syncs
  /// files) and reports instead the write-ahead log's size after each commit (`sqlite3_wal_hook`)
  /// to `size`, which other connections to the same file may report to as well.
  @discardableResult
  package func trackWALSize(into size: WALSize = WALSize()) -> WALSize {
    walSize = size
    sqlite3_wal_hook(handle, { context, _, _, frames in
      Unmanaged<WALSize>.fromOpaque(context!).takeUnretainedValue().record(frames)
      return SQLITE_OK
    }, Unmanaged.passUnretained(size).toOpaque())
    return size
  }

  /// Runs one or more statements that return nothing useful (`sqlite3_exec`).
  package func execute(_ sql: String) throws(SQLiteError) {
    let status = sqlite3_exec(handle, sql, nil, nil, nil)
    if status != SQLITE_OK { throw error(status) }
  }

  /// The first column of the first row of `sql`, as text (for `PRAGMA journal_mode=WAL` and the like).
  package func scalarText(_ sql: String) throws(SQLiteError) -> String? {
    let statement = try prepare(sql)
    return try statement.step() ? statement.text(at: 0) : nil
  }

  /// Puts the database in WAL mode (`PRAGMA journal_mode=WAL`), waiting as long as a lock
  /// (the busy timeout) for another connection doing the same to a new file. SQLite answers the
  /// connection that read the file while the other held its write lock `SQLITE_BUSY` at once,
  /// without the busy handler (its read lock cannot wait for a write lock), so this tries again
  /// itself, spaced as the busy handler spaces its tries. A file that stays in another mode
  /// throws `SQLITE_CANTOPEN` naming the mode.
  package func useWriteAheadLog() throws(SQLiteError) {
    var tries: Int32 = 0
    while true {
      do throws(SQLiteError) {
        let mode = try scalarText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
          throw SQLiteError.cannotOpen("cannot switch to WAL mode (journal mode is \(mode ?? "?"))")
        }
        return
      } catch where error.isBusy {
        guard busy.waitAgain(afterTries: tries) != 0 else { throw error }
        tries += 1
      }
    }
  }

  /// Compiles `sql` (`sqlite3_prepare_v3`, marked persistent: it is kept and reused).
  package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
    var statement: OpaquePointer?
    let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard status == SQLITE_OK, let statement else { throw error(status) }
    return SQLiteStatement(handle: statement, connection: self)
  }

  /// The error for a failed call, with SQLite's message.
  package func error(_ status: Int32) -> SQLiteError {
    let code = sqlite3_extended_errcode(handle)
    return SQLiteError(code: code == SQLITE_OK ? status : code, message: String(cString: sqlite3_errmsg(handle)))
  }
}

/// The frames in the write-ahead log after the last commit of the connections that report
/// to it (see `trackWALSize(into:)`), which may commit on different threads.
package final class WALSize: Sendable {
  private let count = Atomic<Int32>(0)

  /// A new size, 0 until a commit reports one.
  package init() {}

  /// The frames after the last commit reported.
  package var frames: Int32 { count.load(ordering: .relaxed) }

  /// Set by SQLite's WAL hook on the committing thread.
  func record(_ frames: Int32) { count.store(frames, ordering: .relaxed) }
}

/// SQLite's busy handler for one connection: waits as `sqlite3_busy_timeout` does (1, 2, 5, 10,
/// 15, 20, 25, 25, 25, 50, 50, then 100 ms a try, up to the timeout in all) and counts the tries.
final class BusyWait: Sendable {
  /// The most a call waits in all, in milliseconds.
  let timeout: Atomic<Int32>
  /// Tries so far, over the connection's life.
  let waits = Atomic<Int>(0)
  private static let delays: [Int32] = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]

  init(timeout: Int32) { self.timeout = Atomic(timeout) }

  /// Whether SQLite should try again after `tries` failed tries of this call (1: after waiting).
  func waitAgain(afterTries tries: Int32) -> Int32 {
    waits.add(1, ordering: .relaxed)
    let index = Int(max(tries, 0))
    let delays = Self.delays
    let waited = index < delays.count ? delays[..<index].reduce(0, +) : delays.reduce(0, +) + Int32(index - delays.count) * 100
    var delay = index < delays.count ? delays[index] : 100
    let limit = timeout.load(ordering: .relaxed)
    if waited + delay > limit {
      delay = limit - waited
      if delay <= 0 { return 0 }
    }
    usleep(useconds_t(delay) * 1000)
    return 1
  }
}
