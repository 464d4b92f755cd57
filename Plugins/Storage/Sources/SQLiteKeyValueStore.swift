import CSQLite
import NBridgePlugin

/// `KeyValueStore` in an SQLite database file, in WAL mode.
///
/// Two connections: a reader used on the loop and a writer used on the writer thread,
/// so a read never waits for a commit (WAL readers see the last committed state).
/// `synchronous=NORMAL` means a commit is in the WAL file (in the OS's page cache)
/// when it returns: that survives the process being killed at any moment; only a
/// power loss or kernel crash can lose the last commits. `busy_timeout` and retries
/// on `SQLITE_BUSY` let several processes share one file without "database is locked".
final class SQLiteKeyValueStore: KeyValueStore {
  /// The database file.
  let path: String
  private let reader: Reader
  private let writer: Writer

  /// How long one SQLite call waits for another process's lock.
  static let busyTimeoutMilliseconds: Int32 = 5000
  /// How many times a transaction is retried after the busy timeout ran out.
  static let busyRetries = 6

  /// Opens (creating if needed) the database at `path`; a file that is not an SQLite
  /// database, or that cannot be opened, throws `unavailable` naming it.
  init(path: String) throws {
    self.path = path
    do {
      let writeConnection = try SQLiteConnection(path: path, busyTimeout: Self.busyTimeoutMilliseconds)
      try Self.retryingWhenBusy {
        let mode = try writeConnection.scalarText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
          throw SQLiteError(
            code: SQLITE_CANTOPEN, message: "cannot switch to WAL mode (journal mode is \(mode ?? "?"))")
        }
        try writeConnection.execute(
          """
          PRAGMA synchronous=NORMAL;
          CREATE TABLE IF NOT EXISTS entries (
            grp TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (grp, key)
          ) WITHOUT ROWID;
          """)
      }
      writer = try Writer(writeConnection)
      reader = try Reader(try SQLiteConnection(path: path, busyTimeout: Self.busyTimeoutMilliseconds))
    } catch let error as SQLiteError {
      throw Self.unavailable(path, error)
    }
  }

  func value(forKey key: String, group: String) throws -> String? {
    try reader.reading { reader in
      try reader.get.bind(group, key)
      defer { reader.get.reset() }
      return try reader.get.step() ? reader.get.text(at: 0) : nil
    }
  }

  func keys(group: String) throws -> [String] {
    try reader.reading { reader in
      try reader.keys.bind(group)
      defer { reader.keys.reset() }
      var keys: [String] = []
      while try reader.keys.step() { keys.append(reader.keys.text(at: 0)) }
      return keys
    }
  }

  func apply(_ writes: [StoreWrite]) throws {
    do {
      try Self.retryingWhenBusy { try writer.apply(writes) }
    } catch let error as SQLiteError {
      throw Self.unavailable(path, error)
    }
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

  /// The loop's connection with its prepared reads.
  private final class Reader: @unchecked Sendable {
    let connection: SQLiteConnection
    let get: SQLiteStatement
    let keys: SQLiteStatement

    init(_ connection: SQLiteConnection) throws(SQLiteError) {
      self.connection = connection
      get = try connection.prepare("SELECT value FROM entries WHERE grp = ?1 AND key = ?2")
      keys = try connection.prepare("SELECT key FROM entries WHERE grp = ?1 ORDER BY key")
    }

    /// Runs a read, mapping SQLite errors to `unavailable`.
    func reading<T>(_ body: (Reader) throws -> T) throws -> T {
      do {
        return try body(self)
      } catch let error as SQLiteError {
        throw SQLiteKeyValueStore.unavailable(connection.path, error)
      }
    }
  }

  /// The writer thread's connection with its prepared writes.
  private final class Writer: @unchecked Sendable {
    let connection: SQLiteConnection
    let set: SQLiteStatement
    let remove: SQLiteStatement
    let clear: SQLiteStatement

    init(_ connection: SQLiteConnection) throws(SQLiteError) {
      self.connection = connection
      set = try connection.prepare("INSERT OR REPLACE INTO entries (grp, key, value) VALUES (?1, ?2, ?3)")
      remove = try connection.prepare("DELETE FROM entries WHERE grp = ?1 AND key = ?2")
      clear = try connection.prepare("DELETE FROM entries WHERE grp = ?1")
    }

    /// One `BEGIN IMMEDIATE` transaction (the write lock up front, so it cannot fail half-way on a lock).
    func apply(_ writes: [StoreWrite]) throws(SQLiteError) {
      try connection.execute("BEGIN IMMEDIATE")
      do {
        for write in writes {
          switch write {
          case .set(let group, let key, let json):
            try set.bind(group, key, json)
            try run(set)
          case .remove(let group, let key):
            try remove.bind(group, key)
            try run(remove)
          case .clear(let group):
            try clear.bind(group)
            try run(clear)
          }
        }
        try connection.execute("COMMIT")
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
    }

    /// Steps a bound statement to its end and resets it.
    private func run(_ statement: SQLiteStatement) throws(SQLiteError) {
      defer { statement.reset() }
      _ = try statement.step()
    }
  }
}
