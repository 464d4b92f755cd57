/// Writes queued or being committed, so reads see them before they reach the file
/// (read-your-writes), without waiting for the commit.
///
/// Each write carries the sequence number it was queued with; once the transaction
/// holding writes up to some number has finished, `forget(through:)` drops them and
/// reads go back to the file, which then holds them.
///
/// Writes are kept as a list; the index by group and key that reads need is built at the
/// first read and kept up to date from then on, until a transaction finishes. A burst of
/// writes with no read among them (10,000 `set`s at once) never hashes a key here.
struct PendingWrites {
  /// What the pending writes say about one key.
  enum Lookup: Equatable {
    /// Nothing pending: ask the file.
    case unknown
    /// Removed (or its group cleared) and not set since.
    case absent
    /// Set to this JSON text.
    case json(String)
  }

  private struct Group {
    /// The sequence number of the latest pending `clear` of the group.
    var clearedAt: UInt64?
    /// The latest pending write of each key: its sequence number and JSON text (nil: removed).
    var entries: [ExactString: (sequence: UInt64, json: String?)] = [:]
  }

  /// The pending writes in the order they were queued (their numbers grow).
  private var log: [(sequence: UInt64, write: StoreWrite)] = []
  /// The latest pending write of each key by group, once a read has asked (nil: not built).
  private var index: [ExactString: Group]?

  /// Records `write`, queued as number `sequence` (numbers only grow).
  mutating func record(_ write: StoreWrite, sequence: UInt64) {
    log.append((sequence, write))
    if index != nil { Self.apply(write, sequence: sequence, to: &index!) }
  }

  /// The index of the pending writes, built from the list when first needed.
  private mutating func indexed() -> [ExactString: Group] {
    if let index { return index }
    var built: [ExactString: Group] = [:]
    for entry in log { Self.apply(entry.write, sequence: entry.sequence, to: &built) }
    index = built
    return built
  }

  private static func apply(_ write: StoreWrite, sequence: UInt64, to groups: inout [ExactString: Group]) {
    switch write {
    case .set(let group, let key, let json):
      groups[ExactString(group), default: Group()].entries[ExactString(key)] = (sequence, json)
    case .remove(let group, let key):
      groups[ExactString(group), default: Group()].entries[ExactString(key)] = (sequence, nil)
    case .clear(let group):
      groups[ExactString(group)] = Group(clearedAt: sequence)
    }
  }

  /// What is pending for `key` in `group`.
  mutating func lookup(key: String, group: String) -> Lookup {
    guard !log.isEmpty, let pending = indexed()[ExactString(group)] else { return .unknown }
    if let entry = pending.entries[ExactString(key)] { return entry.json.map(Lookup.json) ?? .absent }
    return pending.clearedAt == nil ? .unknown : .absent
  }

  /// The keys of `group` once the pending writes land on `stored` (the file's keys), sorted by UTF-8 bytes.
  mutating func keys(group: String, stored: [String]) -> [String] {
    guard !log.isEmpty, let pending = indexed()[ExactString(group)] else { return stored }
    var keys = Set((pending.clearedAt == nil ? stored : []).map(ExactString.init))
    for (key, entry) in pending.entries {
      if entry.json == nil { keys.remove(key) } else { keys.insert(key) }
    }
    return keys.map(\.string).sorted(by: ExactString.precedes)
  }

  /// Drops every write numbered `sequence` or lower: its transaction has finished.
  mutating func forget(through sequence: UInt64) {
    let finished = log.prefix { $0.sequence <= sequence }.count
    guard finished > 0 else { return }
    log.removeFirst(finished)
    // Rebuilt from what is left at the next read.
    index = nil
  }
}
