import NBridgeSQLite
import NBridgePlugin

/// `KeyValueStore` in an SQLite database file, in WAL mode.
///
/// Two connections. The loop's connection reads (WAL readers see the last committed
/// state and never wait for a writer) and commits when the write lock is free at once:
/// `busy_timeout` is 0 while it tries, so it cannot block the loop on another process.
/// The writer thread's connection commits what the loop could not (another process held
/// the lock): it waits with `busy_timeout` and retries on `SQLITE_BUSY`, so several
/// processes share one file without "database is locked". It also runs the checkpoints
/// the loop's connection leaves out, since a checkpoint syncs files.
/// `synchronous=NORMAL` means a commit is in the WAL file (in the OS's page cache)
/// when it returns: that survives the process being killed at any moment; only a
/// power loss or kernel crash can lose the last commits.
final class SQLiteKeyValueStore: KeyValueStore {
  /// The database file.
  let path: String
  private let loop: Loop
  private let writer: Writes
  private let walSize: WALSize

  /// How long one SQLite call waits for another process's lock.
  static let busyTimeoutMilliseconds: Int32 = 5000
  /// How many times a transaction is retried after the busy timeout ran out.
  static let busyRetries = 6
  /// The WAL size (frames, i.e. pages) from which the writer thread checkpoints: SQLite's own
  /// default; during a burst of writes, from four times that.
  static let checkpointFrames: Int32 = 1000

  /// How many times the writer thread's connection found another connection's lock in its way.
  var writerBusyWaits: Int { writer.connection.busyWaits }

  /// The table of plain values.
  static let plainTable = "entries"
  /// The table of secure values (`SealedValue` text, never plaintext).
  static let secureTable = "secure_entries"

  /// Opens (creating if needed) the database at `path` and its `table` (one of the two above);
  /// a file that is not an SQLite database, or that cannot be opened, throws `unavailable` naming it.
  init(path: String, table: String = plainTable) throws {
    self.path = path
    do {
      let writeConnection = try SQLiteConnection(path: path, busyTimeout: Self.busyTimeoutMilliseconds)
      try writeConnection.useWriteAheadLog()
      try Self.retryingWhenBusy {
        try writeConnection.execute(
          """
          PRAGMA synchronous=NORMAL;
          CREATE TABLE IF NOT EXISTS \(table) (
            grp TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (grp, key)
          ) WITHOUT ROWID;
          """)
      }
      writer = try Writes(writeConnection, table: table)
      let loopConnection = try SQLiteConnection(path: path, busyTimeout: Self.busyTimeoutMilliseconds)
      var prepared: Loop?
      try Self.retryingWhenBusy {
        try loopConnection.execute("PRAGMA synchronous=NORMAL")
        prepared = try Loop(loopConnection, table: table)
      }
      // Both connections report the log's size and neither checkpoints on its own: the
      // engine asks for a checkpoint on the writer thread when it is due (`checkpointDue`).
      walSize = loopConnection.trackWALSize()
      writer.connection.trackWALSize(into: walSize)
      loop = prepared!
    } catch let error as SQLiteError {
      throw Self.unavailable(path, error)
    }
  }

  func value(forKey key: String, group: String) throws -> String? {
    try loop.reading { loop in
      try loop.get.bind(group, key)
      defer { loop.get.reset() }
      return try loop.get.step() ? loop.get.text(at: 0) : nil
    }
  }

  func keys(group: String) throws -> [String] {
    try loop.reading { loop in
      try loop.keys.bind(group)
      defer { loop.keys.reset() }
      var keys: [String] = []
      while try loop.keys.step() { keys.append(loop.keys.text(at: 0)) }
      return keys
    }
  }

  func applyIfUnlocked(_ writes: [StoreWrite]) throws -> Bool {
    let connection = loop.connection
    connection.setBusyTimeout(0)
    defer { connection.setBusyTimeout(Self.busyTimeoutMilliseconds) }
    switch Result(catching: { () throws(SQLiteError) in try loop.writes.apply(writes) }) {
    case .success: return true
    case .failure(let error) where error.isBusy: return false
    case .failure(let error): throw Self.unavailable(path, error)
    }
  }

  func apply(_ writes: [StoreWrite]) throws {
    do {
      try Self.retryingWhenBusy { try writer.apply(writes) }
    } catch let error as SQLiteError {
      throw Self.unavailable(path, error)
    }
  }

  var checkpointDue: Bool { walSize.frames >= Self.checkpointFrames }

  var checkpointOverdue: Bool { walSize.frames >= 4 * Self.checkpointFrames }

  func checkpoint() {
    // RESTART: copies every frame, then holds off writers (the loop's commits go to the writer
    // queue meanwhile) until readers are done with the WAL, so the next commit starts it over.
    // A PASSIVE checkpoint never caught up with writes committed while it ran: the WAL grew
    // without bound (150 MB after 20,000 sets) and checkpoints ran back to back, syncing each
    // time. A failure (another process reading for longer than the busy timeout) only leaves
    // the WAL longer until the next one.
    try? writer.connection.execute("PRAGMA wal_checkpoint(RESTART)")
  }

  /// Runs `body`, again after `SQLITE_BUSY` (each try already waited the busy timeout).
  private static func retryingWhenBusy(_ body: () throws -> Void) throws {
    var attempt = 0
    while true {
      do {
        return try body()
      } catch let error as SQLiteError where error.isBusy && attempt < busyRetries {
        attempt += 1
      }
    }
  }

  private static func unavailable(_ path: String, _ error: SQLiteError) -> BridgeError {
    BridgeError.unavailable("cannot use the storage database \(path): \(error)")
  }

  /// The loop's connection with its prepared reads and writes.
  private final class Loop: @unchecked Sendable {
    let connection: SQLiteConnection
    let get: SQLiteStatement
    let keys: SQLiteStatement
    let writes: Writes

    init(_ connection: SQLiteConnection, table: String) throws(SQLiteError) {
      self.connection = connection
      get = try connection.prepare("SELECT value FROM \(table) WHERE grp = ?1 AND key = ?2")
      keys = try connection.prepare("SELECT key FROM \(table) WHERE grp = ?1 ORDER BY key")
      writes = try Writes(connection, table: table)
    }

    /// Runs a read, mapping SQLite errors to `unavailable`.
    func reading<T>(_ body: (Loop) throws -> T) throws -> T {
      do {
        return try body(self)
      } catch let error as SQLiteError {
        throw SQLiteKeyValueStore.unavailable(connection.path, error)
      }
    }
  }

  /// One connection's prepared writes, applied as one transaction.
  private final class Writes: @unchecked Sendable {
    let connection: SQLiteConnection
    let begin: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let set: SQLiteStatement
    let remove: SQLiteStatement
    let clear: SQLiteStatement

    init(_ connection: SQLiteConnection, table: String) throws(SQLiteError) {
      self.connection = connection
      begin = try connection.prepare("BEGIN IMMEDIATE")
      commit = try connection.prepare("COMMIT")
      rollback = try connection.prepare("ROLLBACK")
      set = try connection.prepare("INSERT OR REPLACE INTO \(table) (grp, key, value) VALUES (?1, ?2, ?3)")
      remove = try connection.prepare("DELETE FROM \(table) WHERE grp = ?1 AND key = ?2")
      clear = try connection.prepare("DELETE FROM \(table) WHERE grp = ?1")
    }

    /// One `BEGIN IMMEDIATE` transaction (the write lock up front, so it cannot fail half-way on a
    /// lock); a single write is one statement, its own transaction (SQLite's autocommit: the same
    /// lock and commit, two statements fewer, ~1,500 instructions).
    func apply(_ writes: [StoreWrite]) throws(SQLiteError) {
      if writes.count == 1 { return try run(writes[0]) }
      try run(begin)
      do {
        for write in writes { try run(write) }
        try run(commit)
      } catch {
        try? run(rollback)
        throw error
      }
    }

    private func run(_ write: StoreWrite) throws(SQLiteError) {
      switch write {
      // Bound without a copy: the texts are in hand until each statement has run.
      case .set(let group, let key, let json): try set.run(binding: group, key, json)
      case .remove(let group, let key): try remove.run(binding: group, key)
      case .clear(let group): try clear.run(binding: group)
      }
    }

    /// Steps a statement to its end and resets it.
    private func run(_ statement: SQLiteStatement) throws(SQLiteError) {
      defer { statement.reset() }
      _ = try statement.step()
    }
  }
}
