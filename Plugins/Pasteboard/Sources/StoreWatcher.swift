import NBridgeSystem
import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// Reports changes to the shared store's files, made by any process, through inotify on
/// the store's folder; the inotify descriptor is watched by the loop, so nothing polls.
///
/// Each report carries the count read from the file at that moment, and only counts
/// above 0 that differ from the last one reported for that pasteboard are reported: two
/// quick writes may arrive as one report of the later count.
@BridgeActor
final class StoreWatcher {
  private let store: PasteboardStore
  private let descriptor: Int32
  private var watch: DescriptorWatch?
  private var reported: [PasteboardStore.Key: Int] = [:]
  private let onChange: @BridgeActor (PasteboardStore.Key, Int) -> Void

  /// Starts watching the store's folder (creating it) and reporting to `onChange`.
  init(
    store: PasteboardStore, context: PluginContext, onChange: @escaping @BridgeActor (PasteboardStore.Key, Int) -> Void
  )
    throws(SystemError)
  {
    self.store = store
    self.onChange = onChange
    try POSIX.makeDirectories(store.directory)
    descriptor = try POSIX.retrying("watch \(store.directory)") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
    // Every write renames a finished file into place: a move in, or a removal, is a change.
    let mask = UInt32(IN_MOVED_TO | IN_DELETE)
    do {
      _ = try POSIX.retrying("watch \(store.directory)") { inotify_add_watch(descriptor, store.directory, mask) }
    } catch {
      Glibc.close(descriptor)
      throw error
    }
    watch = context.watchReadable(descriptor) { [weak self] in self?.drain() }
  }

  /// Stops watching and closes the inotify descriptor.
  func cancel() {
    guard let watch else { return }
    watch.cancel()
    self.watch = nil
    Glibc.close(descriptor)
  }

  /// Reads every queued inotify event and reports the pasteboards they touched.
  private func drain() {
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    var touched: [String] = []
    var overflowed = false
    while true {
      let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      var offset = 0
      while offset + 16 <= n {
        let mask = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self) }
        let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
        let nameBytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
        if mask & UInt32(IN_Q_OVERFLOW) != 0 { overflowed = true }
        if mask & UInt32(IN_IGNORED) != 0 { cancel() }
        if !nameBytes.isEmpty { touched.append(String(decoding: nameBytes, as: UTF8.self)) }
        offset += 16 + length
      }
    }
    if overflowed { touched += listFiles() }
    for fileName in touched { report(fileName) }
  }

  /// Reports the pasteboard stored in `fileName` if its count moved.
  private func report(_ fileName: String) {
    guard let key = store.key(forFileName: fileName) else { return }
    guard let stored = try? store.read(key) else {
      reported[key] = nil
      return
    }
    guard stored.changeCount > 0, reported[key] != stored.changeCount else { return }
    reported[key] = stored.changeCount
    onChange(key, stored.changeCount)
  }

  /// Every file name in the store's folder (after an inotify queue overflow).
  private func listFiles() -> [String] {
    Directory.names(store.directory) ?? []
  }
}
