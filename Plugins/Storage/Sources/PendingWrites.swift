/// Writes queued or being committed, so reads see them before they reach the file
/// (read-your-writes), without waiting for the commit.
///
/// Each write carries the sequence number it was queued with; once the transaction
/// holding writes up to some number has finished, `forget(through:)` drops them and
/// reads go back to the file, which then holds them.
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

  private var groups: [ExactString: Group] = [:]

  /// Records `write`, queued as number `sequence` (numbers only grow).
  mutating func record(_ write: StoreWrite, sequence: UInt64) {
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
  func lookup(key: String, group: String) -> Lookup {
    guard let pending = groups[ExactString(group)] else { return .unknown }
    if let entry = pending.entries[ExactString(key)] { return entry.json.map(Lookup.json) ?? .absent }
    return pending.clearedAt == nil ? .unknown : .absent
  }

  /// The keys of `group` once the pending writes land on `stored` (the file's keys), sorted by UTF-8 bytes.
  func keys(group: String, stored: [String]) -> [String] {
    guard let pending = groups[ExactString(group)] else { return stored }
    var keys = Set((pending.clearedAt == nil ? stored : []).map(ExactString.init))
    for (key, entry) in pending.entries {
      if entry.json == nil { keys.remove(key) } else { keys.insert(key) }
    }
    return keys.map(\.string).sorted(by: ExactString.precedes)
  }

  /// Drops every write numbered `sequence` or lower: its transaction has finished.
  mutating func forget(through sequence: UInt64) {
    for (name, var group) in groups {
      if let cleared = group.clearedAt, cleared <= sequence { group.clearedAt = nil }
      group.entries = group.entries.filter { $0.value.sequence > sequence }
      groups[name] = group.clearedAt == nil && group.entries.isEmpty ? nil : group
    }
  }
}
