import NBridgePlugin
import NBridgeSQLite

/// `localStorage`'s file in the app's data folder: one SQLite table of keys and values, each kept
/// as its UTF-16 code units (so a lone surrogate survives), in WAL mode. Every write is its own
/// transaction, in the file (the kernel's page cache) when it returns: a value whose `setItem`
/// returned survives a kill -9, and another process reading the file sees it. (`synchronous =
/// NORMAL`: a power cut may lose the last writes, never corrupt the file.)
///
/// On the same SQLite wrapper as the storage plugin (NBridgeSQLite), not on the plugin: a plugin
/// may be left out of a build or denied by the manifest, and `localStorage` needs neither a
/// permission nor a thread.
@BridgeActor
final class LocalStorageFile {
  /// The database file.
  let path: String
  private let connection: SQLiteConnection
  private var statements: [String: SQLiteStatement] = [:]

  /// Opens (creating) the file at `path`; waits up to 5 s for another process's lock.
  init(path: String) throws(LocalStorageFailure) {
    self.path = path
    do {
      connection = try SQLiteConnection(path: path, busyTimeout: 5000)
      try connection.useWriteAheadLog()
      try connection.execute("PRAGMA synchronous = NORMAL")
      try connection.execute("CREATE TABLE IF NOT EXISTS items (key BLOB PRIMARY KEY NOT NULL, value BLOB NOT NULL)")
    } catch {
      throw LocalStorageFailure(path: path, error)
    }
  }

  /// Every item in the order written first: `body(key, keyLength, value, valueLength)` in UTF-16 units.
  func forEach(_ body: (UnsafePointer<UInt16>?, Int, UnsafePointer<UInt16>?, Int) -> Void) throws(LocalStorageFailure) {
    let statement = try prepared("SELECT key, value FROM items ORDER BY rowid")
    defer { statement.reset() }
    do {
      while try statement.step() {
        let key = statement.blob(at: 0)
        let value = statement.blob(at: 1)
        body(
          key.baseAddress?.assumingMemoryBound(to: UInt16.self), key.count / 2,
          value.baseAddress?.assumingMemoryBound(to: UInt16.self), value.count / 2)
      }
    } catch {
      throw LocalStorageFailure(path: path, error)
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

  private func run(_ statement: SQLiteStatement, _ blobs: [UnsafeBufferPointer<UInt16>]) throws(LocalStorageFailure) {
    defer { statement.reset() }
    do {
      // The units outlive the step below: bound without a copy.
      for (index, blob) in blobs.enumerated() { try statement.bind(unsafeBlob: UnsafeRawBufferPointer(blob), at: Int32(index + 1)) }
      _ = try statement.step()
    } catch {
      throw LocalStorageFailure(path: path, error)
    }
  }

  private func prepared(_ sql: String) throws(LocalStorageFailure) -> SQLiteStatement {
    if let statement = statements[sql] { return statement }
    do {
      let statement = try connection.prepare(sql)
      statements[sql] = statement
      return statement
    } catch {
      throw LocalStorageFailure(path: path, error)
    }
  }
}

/// Why `localStorage`'s file could not be opened, read or written (SQLite's message).
struct LocalStorageFailure: Error {
  let path: String
  let message: String
  /// The disk (or the file's size limit) is full: a `QuotaExceededError` to the script.
  var full = false

  /// The failure of an SQLite call on the file at `path`.
  init(path: String, _ error: SQLiteError) {
    self.path = path
    message = error.message
    full = error.isFull
  }
}
