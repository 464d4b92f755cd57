import NBridgeSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Pasteboards kept as files in `<shared dir>/pasteboards`, one file each, shared by every
/// nbridge process of the user.
///
/// A write takes an exclusive `flock` on `.lock`, reads the current count, writes the new
/// file under a temporary name and `rename`s it into place: two writers never interleave,
/// the count goes up by exactly one per change, and a reader (which takes no lock) sees the
/// old file or the new one, never half of one. The general pasteboard is `.general`; named
/// ones use their name, which can never start with `.`. Files are not fsynced: a pasteboard
/// survives the process and restarts, not a power cut.
struct PasteboardStore: Sendable {
  /// Which pasteboard of the store.
  enum Key: Hashable, Sendable {
    /// The general pasteboard when no desktop clipboard is used.
    case general
    /// A named pasteboard.
    case named(PasteboardName)

    /// The name the `change` event reports (nil for the general pasteboard).
    var name: String? {
      if case .named(let name) = self { return name.rawValue }
      return nil
    }
  }

  /// The folder holding the files.
  let directory: String

  private static let generalFile = ".general"
  private static let lockFile = ".lock"
  private static let temporaryPrefix = ".tmp-"
  private static let sequence = Atomic<Int>(0)

  /// The store inside `sharedDirectory`.
  init(sharedDirectory: String) {
    directory = sharedDirectory + "/pasteboards"
  }

  /// The file of `key`.
  func path(for key: Key) -> String {
    switch key {
    case .general: "\(directory)/\(PasteboardStore.generalFile)"
    case .named(let name): "\(directory)/\(name.rawValue)"
    }
  }

  /// The key a file in the folder belongs to, or nil for the store's own files.
  func key(forFileName fileName: String) -> Key? {
    if fileName == PasteboardStore.generalFile { return .general }
    guard let name = try? PasteboardName(fileName) else { return nil }
    return .named(name)
  }

  /// The pasteboard of `key`, or nil when it has no file (never written, or removed).
  func read(_ key: Key) throws(SystemError) -> StoredPasteboard? {
    let path = path(for: key)
    let fd: Int32
    do {
      fd = try POSIX.open(path, O_RDONLY)
    } catch  where error.code == ENOENT {
      return nil
    }
    defer { close(fd) }
    let bytes = try POSIX.readAll(fd, limit: maxTextBytes + 64, what: path)
    guard let stored = StoredPasteboard(decoding: bytes) else {
      throw SystemError(operation: "read \(path): not a pasteboard file", code: EINVAL)
    }
    return stored
  }

  /// Replaces the text of `key` (nil clears it) and counts one change; returns the new state.
  /// A named pasteboard must exist: for one that does not, nothing is written and nil returned.
  func write(_ text: String?, to key: Key) throws(SystemError) -> StoredPasteboard? {
    try locked { () throws(SystemError) -> StoredPasteboard? in
      let current = try read(key)
      if current == nil, case .named = key { return nil }
      let next = StoredPasteboard(changeCount: (current?.changeCount ?? 0) + 1, text: text)
      try replace(key, with: next)
      return next
    }
  }

  /// Creates the named pasteboard, empty with a count of 0; an existing one is left as it is.
  func create(_ name: PasteboardName) throws(SystemError) {
    try locked { () throws(SystemError) in
      if try read(.named(name)) == nil {
        try replace(.named(name), with: StoredPasteboard(changeCount: 0, text: nil))
      }
    }
  }

  /// Removes the named pasteboard; false when there was none.
  func remove(_ name: PasteboardName) throws(SystemError) -> Bool {
    try locked { () throws(SystemError) in try POSIX.unlink(path(for: .named(name))) }
  }

  /// Writes `stored` to a temporary file and renames it over the file of `key`.
  private func replace(_ key: Key, with stored: StoredPasteboard) throws(SystemError) {
    let number = PasteboardStore.sequence.wrappingAdd(1, ordering: .relaxed).newValue
    let temporary = "\(directory)/\(PasteboardStore.temporaryPrefix)\(getpid())-\(number)"
    let fd = try POSIX.open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode: 0o600)
    do throws(SystemError) {
      defer { close(fd) }
      try POSIX.writeAll(fd, stored.encoded(), what: temporary)
    } catch {
      _ = try? POSIX.unlink(temporary)
      throw error
    }
    do throws(SystemError) {
      try POSIX.rename(temporary, path(for: key))
    } catch {
      _ = try? POSIX.unlink(temporary)
      throw error
    }
  }

  /// Runs `body` holding the store's exclusive lock, creating the folder first if needed.
  private func locked<T>(_ body: () throws(SystemError) -> T) throws(SystemError) -> T {
    try POSIX.makeDirectories(directory)
    let lockPath = "\(directory)/\(PasteboardStore.lockFile)"
    let fd = try POSIX.open(lockPath, O_RDWR | O_CREAT, mode: 0o600)
    defer { close(fd) }
    try POSIX.lock(fd, exclusive: true, what: lockPath)
    return try body()
  }
}
