import NBridgePlugin

/// Where the general pasteboard lives: the X11 clipboard, Wayland's, or nbridge's shared store.
@BridgeActor
protocol ClipboardBackend: AnyObject {
  /// The text on the clipboard, or nil when it holds none.
  func string() async throws -> String?
  /// Whether the clipboard holds text.
  func hasString() async throws -> Bool
  /// Puts `text` on the clipboard; it stays there after this process exits.
  func setString(_ text: String) async throws
  /// Empties the clipboard.
  func clear() async throws
  /// The change count: across processes for the shared store, the changes seen by this process otherwise.
  func changeCount() throws -> Int
  /// Calls `handler` with the new count after every change while set; nil stops watching.
  func observe(_ handler: (@BridgeActor (Int) -> Void)?) throws
  /// Releases connections and helper processes at the end of the run.
  func close()
}

extension ClipboardBackend {
  func hasString() async throws -> Bool { try await string() != nil }
}
