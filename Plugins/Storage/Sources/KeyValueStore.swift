import NBridgePlugin

/// The durable store behind `storage` and `preference`: JSON text by group and key.
///
/// Reads run on the loop; `apply` runs on the writer thread. Every failure is a
/// `BridgeError` (`unavailable`, naming the database file) that can go straight to JS.
protocol KeyValueStore: AnyObject, Sendable {
  /// The stored JSON text of `key` in `group`, or nil.
  func value(forKey key: String, group: String) throws -> String?
  /// The keys of `group`, in the order of their UTF-8 bytes.
  func keys(group: String) throws -> [String]
  /// Applies `writes` in order, in one transaction: all of them or none.
  func apply(_ writes: [StoreWrite]) throws
}

/// One change to the store.
enum StoreWrite: Sendable {
  /// Stores `json` (a value's JSON text) under `key`.
  case set(group: String, key: String, json: String)
  /// Removes `key`.
  case remove(group: String, key: String)
  /// Removes every key of `group`.
  case clear(group: String)
}
