import CJavaScriptCore
import CSQLite
import NBridgePlugin

/// `localStorage`'s file in the app's data folder: one SQLite table of keys and values, each kept
/// as its UTF-16 code units (so a lone surrogate survives), in WAL mode. Every write is its own
/// transaction, in the file (the kernel's page cache) when it returns: a value whose `setItem`
/// returned survives a kill -9, and another process reading the file sees it. (`synchronous =
/// NORMAL`: a power cut may lose the last writes, never corrupt the file.)
///
/// The runtime's own small store, not the storage plugin's engine: a plugin may be left out of a
/// build or denied by the manifest, and `localStorage` needs neither a permission nor a thread.
@BridgeActor
final class LocalStorageFile {
  /// The database file.
  let path: String
  private let db: OpaquePointer
  private var statements: [String: OpaquePointer] = [:]

  /// Opens (creating) the file at `path`; waits up to 5 s for another process's lock.
  init(path: String) throws(LocalStorageFailure) {
    self.path = path
    var handle: OpaquePointer?
    let status = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard let handle else {
      let reason = nbsqlite_load_error().map { String(cString: $0) } ?? "out of memory"
      throw LocalStorageFailure(path: path, message: "\(reason) (\(status))")
    }
    db = handle
    guard status == SQLITE_OK else {
      let failure = LocalStorageFailure(path: path, message: String(cString: sqlite3_errmsg(handle)))
      sqlite3_close_v2(handle)
      throw failure
    }
    sqlite3_busy_timeout(db, 5000)
    do {
      try execute("PRAGMA journal_mode = WAL")
      try execute("PRAGMA synchronous = NORMAL")
      try execute("CREATE TABLE IF NOT EXISTS items (key BLOB PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
    } catch {
      sqlite3_close_v2(db)
      throw error
    }
  }

  isolated deinit {
    for statement in statements.values { sqlite3_finalize(statement) }
    sqlite3_close_v2(db)
  }

  /// Every item in the order written first: `body(key, keyLength, value, valueLength)` in UTF-16 units.
  func forEach(_ body: (UnsafePointer<UInt16>?, Int, UnsafePointer<UInt16>?, Int) -> Void) throws(LocalStorageFailure) {
    let statement = try prepared("SELECT key, value FROM items ORDER BY rowid")
    defer { sqlite3_reset(statement) }
    while true {
      let status = sqlite3_step(statement)
      if status == SQLITE_DONE { return }
      guard status == SQLITE_ROW else { throw failure() }
      let key = sqlite3_column_blob(statement, 0)?.assumingMemoryBound(to: UInt16.self)
      let keyLength = Int(sqlite3_column_bytes(statement, 0)) / 2
      let value = sqlite3_column_blob(statement, 1)?.assumingMemoryBound(to: UInt16.self)
      let valueLength = Int(sqlite3_column_bytes(statement, 1)) / 2
      body(key, keyLength, value, valueLength)
    }
  }

  /// Writes `key` = `value` (UTF-16 units); an existing key keeps its place in the order.
  func set(key: UnsafeBufferPointer<UInt16>, value: UnsafeBufferPointer<UInt16>) throws(LocalStorageFailure) {
    let statement = try prepared(
      "INSERT INTO items (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
    try run(statement, [key, value])
  }

  /// Removes `key`.
  func remove(key: UnsafeBufferPointer<UInt16>) throws(LocalStorageFailure) {
    try run(try prepared("DELETE FROM items WHERE key = ?1"), [key])
  }

  /// Removes every item.
  func clear() throws(LocalStorageFailure) {
    try run(try prepared("DELETE FROM items"), [])
  }

  private func run(_ statement: OpaquePointer, _ blobs: [UnsafeBufferPointer<UInt16>]) throws(LocalStorageFailure) {
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    for (index, blob) in blobs.enumerated() {
      // SQLITE_STATIC: the units outlive the step below. A zero-length blob still needs a pointer.
      var empty: UInt16 = 0
      let status = withUnsafePointer(to: &empty) { fallback in
        sqlite3_bind_blob(statement, Int32(index + 1), blob.baseAddress ?? fallback, Int32(blob.count * 2), nil)
      }
      guard status == SQLITE_OK else { throw failure() }
    }
    guard sqlite3_step(statement) == SQLITE_DONE else { throw failure() }
  }

  private func prepared(_ sql: String) throws(LocalStorageFailure) -> OpaquePointer {
    if let statement = statements[sql] { return statement }
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw failure() }
    statements[sql] = statement
    return statement
  }

  private func execute(_ sql: String) throws(LocalStorageFailure) {
    guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw failure() }
  }

  private func failure() -> LocalStorageFailure {
    let code = sqlite3_extended_errcode(db)
    return LocalStorageFailure(path: path, message: String(cString: sqlite3_errmsg(db)), full: code & 0xFF == SQLITE_FULL)
  }
}

/// Why `localStorage`'s file could not be opened, read or written (SQLite's message).
struct LocalStorageFailure: Error {
  let path: String
  let message: String
  /// The disk (or the file's size limit) is full: a `QuotaExceededError` to the script.
  var full = false
}
