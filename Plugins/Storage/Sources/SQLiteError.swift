import CSQLite

/// A failed SQLite call: the extended result code and SQLite's own message.
struct SQLiteError: Error, Sendable, CustomStringConvertible {
  /// The extended result code (`sqlite3_extended_errcode`).
  var code: Int32
  /// `sqlite3_errmsg` at the time of the failure.
  var message: String

  /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
  var primaryCode: Int32 { code & 0xFF }

  /// Another connection (or process) holds a lock this call needed, even after the busy timeout.
  var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

  /// Why an open gave no connection at all: libsqlite3 could not be opened, else memory ran out.
  static var noConnectionMessage: String {
    nbsqlite_load_error().map { String(cString: $0) } ?? "out of memory"
  }

  /// `message (SQLite error N)`.
  var description: String { "\(message) (SQLite error \(code))" }
}
