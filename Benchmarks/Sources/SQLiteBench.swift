import CSQLite

/// Raw SQLite through the C API: WAL, `synchronous=NORMAL`, `INSERT OR REPLACE` of 16-byte keys and 100-byte values.
enum SQLiteBench {
  /// µs per insert of `count` rows: (autocommit, all in one transaction).
  static func inserts(directory: String, count: Int) -> (autocommit: Double, transaction: Double) {
    var db: OpaquePointer?
    precondition(sqlite3_open("\(directory)/raw.sqlite", &db) == SQLITE_OK)
    defer { sqlite3_close(db) }
    exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    exec(db, "CREATE TABLE kv (key TEXT PRIMARY KEY, value BLOB NOT NULL)")
    var statement: OpaquePointer?
    precondition(
      sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO kv (key, value) VALUES (?, ?)", -1, &statement, nil) == SQLITE_OK)
    defer { sqlite3_finalize(statement) }
    let value = [UInt8](repeating: UInt8(ascii: "v"), count: 100)

    func insertAll(prefix: String) -> Double {
      let start = Clock.nanos()
      for i in 0..<count {
        let key = Bench.key(prefix, i)
        sqlite3_bind_text(statement, 1, key, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        _ = value.withUnsafeBytes { sqlite3_bind_blob(statement, 2, $0.baseAddress, 100, nil) }
        precondition(sqlite3_step(statement) == SQLITE_DONE)
        sqlite3_reset(statement)
      }
      return Double(Clock.nanos() - start) / 1000 / Double(count)
    }
    _ = insertAll(prefix: "w")
    let autocommit = insertAll(prefix: "a")
    exec(db, "BEGIN")
    let transaction = insertAll(prefix: "t")
    exec(db, "COMMIT")
    return (autocommit, transaction)
  }

  static func exec(_ db: OpaquePointer?, _ sql: String) {
    precondition(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK, String(cString: sqlite3_errmsg(db)))
  }
}
