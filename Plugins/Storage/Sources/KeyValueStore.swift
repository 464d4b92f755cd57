import NBridgePlugin

/// The durable store behind `storage` and `preference`: JSON text by group and key.
///
/// Reads and `applyIfUnlocked` run on the loop and never wait for a lock; `apply` and
/// `checkpoint` run on the writer thread and may. Every failure is a `BridgeError`
/// (`unavailable`, naming the database file) that can go straight to JS.
protocol KeyValueStore: AnyObject, Sendable {
  /// The stored JSON text of `key` in `group`, or nil.
  func value(forKey key: String, group: String) throws -> String?
  /// The keys of `group`, in the order of their UTF-8 bytes.
  func keys(group: String) throws -> [String]
  /// Applies `writes` in order, in one transaction, if the write lock is free at once;
  /// false (nothing applied) when another connection holds it.
  func applyIfUnlocked(_ writes: [StoreWrite]) throws -> Bool
  /// Applies `writes` in order, in one transaction: all of them or none, waiting for another connection's lock.
  func apply(_ writes: [StoreWrite]) throws
  /// Whether commits have grown the write-ahead log enough to call `checkpoint()`.
  var checkpointDue: Bool { get }
  /// Whether the log has grown enough to call `checkpoint()` even in the middle of a burst of writes.
  var checkpointOverdue: Bool { get }
  /// Copies the write-ahead log back into the database file (it syncs: not on the loop).
  func checkpoint()
}

/// One change to the store.
///
/// Indirect: its texts sit in one box, so each copy (the pending list, the commit's batch, the
/// statement's binding) retains one object instead of up to three strings.
indirect enum StoreWrite: Sendable {
  /// Stores `json` (a value's JSON text) under `key`.
  case set(group: String, key: String, json: String)
  /// Removes `key`.
  case remove(group: String, key: String)
  /// Removes every key of `group`.
  case clear(group: String)
}
