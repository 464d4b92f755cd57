import NBridgeSystem
import NBridgePlugin

/// The general pasteboard kept in nbridge's shared store: used headless and when no display
/// is configured. Its change count is one count across every nbridge process of the user.
@BridgeActor
final class SharedClipboard: ClipboardBackend {
  private let store: PasteboardStore
  private let context: PluginContext
  private var watcher: StoreWatcher?

  /// The general pasteboard of `store`.
  init(store: PasteboardStore, context: PluginContext) {
    self.store = store
    self.context = context
  }

  func string() throws -> String? { try read()?.text }

  func setString(_ text: String) throws { try write(text) }

  func clear() throws { try write(nil) }

  func changeCount() throws -> Int { try read()?.changeCount ?? 0 }

  func observe(_ handler: (@BridgeActor (Int) -> Void)?) throws {
    watcher?.cancel()
    watcher = nil
    guard let handler else { return }
    do {
      watcher = try StoreWatcher(store: store, context: context) { key, count in
        if key == .general { handler(count) }
      }
    } catch {
      throw storeUnavailable(error)
    }
  }

  func close() { try? observe(nil) }

  private func read() throws(BridgeError) -> StoredPasteboard? {
    do { return try store.read(.general) } catch { throw storeUnavailable(error) }
  }

  private func write(_ text: String?) throws(BridgeError) {
    do { _ = try store.write(text, to: .general) } catch { throw storeUnavailable(error) }
  }
}

/// `unavailable` for a failure of the shared store's files.
func storeUnavailable(_ error: SystemError) -> BridgeError {
  BridgeError.unavailable("the shared pasteboard store failed: \(error)")
}
