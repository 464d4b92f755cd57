import CSQLite

/// A failed SQLite call: the extended result code and SQLite's own message.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
  /// The extended result code (`sqlite3_extended_errcode`).
  package var code: Int32
  /// `sqlite3_errmsg` at the time of the failure.
  package var message: String

  /// An error with extended result `code` and SQLite's `message`.
  package init(code: Int32, message: String) {
    self.code = code
    self.message = message
  }

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
  package var primaryCode: Int32 { code & 0xFF }

  /// Another connection (or process) holds a lock this call needed, even after the busy timeout.
  package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

  /// The disk, or the file's size limit, is full (`SQLITE_FULL`).
  package var isFull: Bool { primaryCode == SQLITE_FULL }

  /// A database that cannot be used as asked (`SQLITE_CANTOPEN`), with `message` saying why.
  package static func cannotOpen(_ message: String) -> SQLiteError { SQLiteError(code: SQLITE_CANTOPEN, message: message) }

  /// Why an open gave no connection at all: libsqlite3 could not be opened, else memory ran out.
  package static var noConnectionMessage: String {
    nbsqlite_load_error().map { String(cString: $0) } ?? "out of memory"
  }

  /// `message (SQLite error N)`.
  package var description: String { "\(message) (SQLite error \(code))" }
}
