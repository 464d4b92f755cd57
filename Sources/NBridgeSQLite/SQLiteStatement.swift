import CSQLite

/// A prepared statement of one `SQLiteConnection`, reused with `reset()`.
///
/// Text is bound with an explicit byte length, so strings holding NUL characters
/// round-trip, and copied by SQLite (`SQLITE_TRANSIENT`), so no Swift buffer has to outlive the call.
package final class SQLiteStatement {
  private let handle: OpaquePointer
  private let connection: SQLiteConnection

  /// A statement `connection` compiled (`SQLiteConnection.prepare`).
  init(handle: OpaquePointer, connection: SQLiteConnection) {
    self.handle = handle
    self.connection = connection
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds text to the 1-based parameter `index` (`sqlite3_bind_text`).
  package func bind(_ text: String, at index: Int32) throws(SQLiteError) {
    var text = text
    let status = text.withUTF8 { bytes in
      guard let start = bytes.baseAddress, !bytes.isEmpty else {
        return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
      }
      return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sqlite3_bind_text(handle, index, $0, Int32(bytes.count), sqliteTransient)
      }
    }
    if status != SQLITE_OK { throw connection.error(status) }
  }

  /// Binds each text in order, from parameter 1.
  package func bind(_ texts: String...) throws(SQLiteError) {
    for (offset, text) in texts.enumerated() { try bind(text, at: Int32(offset + 1)) }
  }

  /// Binds up to three texts to parameters 1, 2 and 3 without SQLite copying them
  /// (`SQLITE_STATIC`: each is bound while its UTF-8 is in hand), runs the statement to its end and
  /// resets it. For a write run thousands of times in one transaction, where a copying bind is a
  /// malloc, a copy and a free per text.
  package func run(binding first: String, _ second: String? = nil, _ third: String? = nil) throws(SQLiteError) {
    defer { reset() }
    try binding(first, at: 1) { () throws(SQLiteError) in
      try binding(second, at: 2) { () throws(SQLiteError) in
        try binding(third, at: 3) { () throws(SQLiteError) in
          while try step() {}
        }
      }
    }
  }

  /// Runs `body` with `text` bound at `index` while its bytes are in hand (`body` alone when nil).
  private func binding(_ text: String?, at index: Int32, _ body: () throws(SQLiteError) -> Void) throws(SQLiteError) {
    guard var text else { return try body() }
    let outcome: Result<Void, SQLiteError> = text.withUTF8 { bytes in
      let start = bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(emptyBlob)
      let status = sqlite3_bind_text(handle, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
      guard status == SQLITE_OK else { return .failure(connection.error(status)) }
      return Result { () throws(SQLiteError) in try body() }
    }
    try outcome.get()
  }

  /// Binds `bytes` to the 1-based parameter `index` as a blob without copying them
  /// (`sqlite3_bind_blob` with `SQLITE_STATIC`): they must stay valid until `reset()`. An empty
  /// buffer binds a zero-length blob, not NULL.
  package func bind(unsafeBlob bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
    let status = sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(emptyBlob), Int32(bytes.count), nil)
    if status != SQLITE_OK { throw connection.error(status) }
  }

  /// Runs the statement to its next row (`sqlite3_step`); false when it is done.
  package func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let status: throw connection.error(status)
    }
  }

  /// The text of column `index` (0-based) of the current row (`sqlite3_column_text`).
  package func text(at index: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// The bytes of column `index` (0-based) of the current row (`sqlite3_column_blob`), valid
  /// until the next `step()` or `reset()`.
  package func blob(at index: Int32) -> UnsafeRawBufferPointer {
    let start = sqlite3_column_blob(handle, index)
    return UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_column_bytes(handle, index)))
  }

  /// Makes the statement ready to run again and drops its bindings (`sqlite3_reset`, `sqlite3_clear_bindings`).
  package func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }
}

/// `SQLITE_TRANSIENT`, a C macro Swift cannot import: SQLite copies the bound bytes.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// What an empty blob is bound to: SQLite binds NULL for a null pointer.
nonisolated(unsafe) private let emptyBlob = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
