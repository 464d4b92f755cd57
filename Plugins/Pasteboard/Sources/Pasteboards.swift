import NBridgePlugin

/// The pasteboard logic behind the plugin: the general pasteboard on its backend, named
/// pasteboards in the shared store, and `change` events while someone listens.
@BridgeActor
final class Pasteboards {
  /// The named pasteboards (and the headless general one).
  let store: PasteboardStore
  /// Which backend the general pasteboard uses.
  let choice: GeneralBackendChoice
  private let context: PluginContext
  private let emit: @BridgeActor (PasteboardChange) -> Void
  private var generalBackend: (any ClipboardBackend)?
  private var namedWatcher: StoreWatcher?
  private var hold: KeepAlive?

  /// Pasteboards for a run; `emit` receives every change while observing.
  init(context: PluginContext, emit: @escaping @BridgeActor (PasteboardChange) -> Void) {
    self.context = context
    self.emit = emit
    store = PasteboardStore(sharedDirectory: context.sharedDirectory)
    choice = GeneralBackendChoice.choose(headless: context.headless, environment: context.environment)
  }

  /// The text of a pasteboard, or nil.
  func string(_ name: PasteboardName?) async throws -> String? {
    guard let name else { return try await general().string() }
    return try existing(name).text
  }

  /// Whether a pasteboard holds text.
  func hasString(_ name: PasteboardName?) async throws -> Bool {
    guard let name else { return try await general().hasString() }
    return try existing(name).text != nil
  }

  /// Puts text on a pasteboard.
  func setString(_ text: String, _ name: PasteboardName?) async throws {
    guard let name else { return try await general().setString(text) }
    try write(text, to: name)
  }

  /// Empties a pasteboard.
  func clear(_ name: PasteboardName?) async throws {
    guard let name else { return try await general().clear() }
    try write(nil, to: name)
  }

  /// A pasteboard's change count.
  func changeCount(_ name: PasteboardName?) throws -> Int {
    guard let name else { return try general().changeCount() }
    return try existing(name).changeCount
  }

  /// Creates a named pasteboard (an existing one is kept as it is).
  func create(_ name: PasteboardName) throws {
    do { try store.create(name) } catch { throw storeUnavailable(error) }
  }

  /// Removes a named pasteboard; `not_found` when there is none.
  func remove(_ name: PasteboardName) throws {
    let removed: Bool
    do { removed = try store.remove(name) } catch { throw storeUnavailable(error) }
    if !removed { throw notFound(name) }
  }

  /// Starts or stops watching every pasteboard for changes; a watch keeps the run alive.
  func observe(_ on: Bool) {
    guard on != (hold != nil) else { return }
    if on {
      hold = context.keepAlive("pasteboard change listener")
      do {
        namedWatcher = try StoreWatcher(store: store, context: context) { [weak self] key, count in
          if let name = key.name { self?.emit(PasteboardChange(name: name, changeCount: count)) }
        }
      } catch {
        context.warn("no change events for named pasteboards: \(storeUnavailable(error).message)")
      }
      do {
        try general().observe { [weak self] count in self?.emit(PasteboardChange(name: nil, changeCount: count)) }
      } catch {
        context.warn("no change events for the general pasteboard: \(describe(error))")
      }
    } else {
      hold?.release()
      hold = nil
      namedWatcher?.cancel()
      namedWatcher = nil
      try? generalBackend?.observe(nil)
    }
  }

  /// Stops watchers and closes the general backend at the end of the run.
  func close() {
    observe(false)
    generalBackend?.close()
    generalBackend = nil
  }

  /// The general pasteboard's backend, made on first use.
  private func general() throws(BridgeError) -> any ClipboardBackend {
    if let generalBackend { return generalBackend }
    let backend: any ClipboardBackend
    switch choice {
    case .x11(let display): backend = X11Clipboard(displayName: display, context: context)
    case .wayland(let display): backend = WaylandClipboard(displayName: display, context: context)
    case .shared: backend = SharedClipboard(store: store, context: context)
    case .misconfigured(let message): throw BridgeError.unavailable(message)
    }
    generalBackend = backend
    return backend
  }

  private func existing(_ name: PasteboardName) throws(BridgeError) -> StoredPasteboard {
    let stored: StoredPasteboard?
    do { stored = try store.read(.named(name)) } catch { throw storeUnavailable(error) }
    guard let stored else { throw notFound(name) }
    return stored
  }

  private func write(_ text: String?, to name: PasteboardName) throws(BridgeError) {
    let written: StoredPasteboard?
    do { written = try store.write(text, to: .named(name)) } catch { throw storeUnavailable(error) }
    if written == nil { throw notFound(name) }
  }

  private func notFound(_ name: PasteboardName) -> BridgeError {
    BridgeError.notFound("no pasteboard named \"\(name)\": create it first with pasteboard.create({name})")
  }

  private func describe(_ error: any Error) -> String {
    (error as? BridgeError)?.message ?? "\(error)"
  }
}
