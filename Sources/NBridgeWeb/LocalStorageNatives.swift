import NBridgePlugin
import NBridgeRuntime

/// The native floor of `localStorage` (`JS/storage.js`): the file in the app's data folder,
/// opened on first use, read whole once and written through on every change.
enum LocalStorageNatives {
  /// The functions added to the prelude's `internal.native`.
  static let functions: [RuntimeExtension.Function<WebState>] = [
    .init("storageLoad", result: load), .init("storageSet", result: set), .init("storageRemove", result: remove),
    .init("storageClear", result: clear),
  ]

  /// `storageLoad()`: `[key, value, key, value, ...]` in the order first written.
  @BridgeActor static func load(_ state: WebState, _ host: ExtensionHost, _: ExtensionArguments) -> ExtensionResult? {
    let file: LocalStorageFile
    do { file = try state.localStorage(host) } catch { return cannotOpen(error) }
    var items: [ExtensionResult] = []
    do throws(LocalStorageFailure) {
      try file.forEach { key, keyLength, value, valueLength in
        items.append(.utf16(Array(UnsafeBufferPointer(start: key, count: keyLength))))
        items.append(.utf16(Array(UnsafeBufferPointer(start: value, count: valueLength))))
      }
    } catch {
      return .error("localStorage: cannot read \(error.path): \(error.message)")
    }
    return .array(items)
  }

  /// `storageSet(key, value)`.
  @BridgeActor static func set(_ state: WebState, _ host: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    write(state, host) { file throws(LocalStorageFailure) in
      try args.withUTF16(0) { key throws(LocalStorageFailure) in
        try args.withUTF16(1) { value throws(LocalStorageFailure) in try file.set(key: key, value: value) }
      }
    }
  }

  /// `storageRemove(key)`.
  @BridgeActor static func remove(_ state: WebState, _ host: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    write(state, host) { file throws(LocalStorageFailure) in
      try args.withUTF16(0) { key throws(LocalStorageFailure) in try file.remove(key: key) }
    }
  }

  /// `storageClear()`.
  @BridgeActor static func clear(_ state: WebState, _ host: ExtensionHost, _: ExtensionArguments) -> ExtensionResult? {
    write(state, host) { file throws(LocalStorageFailure) in try file.clear() }
  }

  /// Runs a write to the file; a full disk throws the `QuotaExceededError` storage.js names.
  @BridgeActor private static func write(
    _ state: WebState, _ host: ExtensionHost, _ body: (LocalStorageFile) throws(LocalStorageFailure) -> Void
  ) -> ExtensionResult? {
    let file: LocalStorageFile
    do { file = try state.localStorage(host) } catch { return cannotOpen(error) }
    do throws(LocalStorageFailure) {
      try body(file)
      return nil
    } catch {
      return .error((error.full ? "QuotaExceededError: " : "") + "localStorage: cannot write \(error.path): \(error.message)")
    }
  }

  /// The error thrown when the file cannot be opened.
  private static func cannotOpen(_ error: LocalStorageFailure) -> ExtensionResult {
    .error("localStorage: cannot open \(error.path): \(error.message)")
  }
}

extension WebState {
  /// `localStorage`'s file in the app's data folder, opened on first use.
  func localStorage(_ host: ExtensionHost) throws(LocalStorageFailure) -> LocalStorageFile {
    if let localStorageFile { return localStorageFile }
    let file = try LocalStorageFile(path: host.configuration.dataDirectory + "/localStorage.sqlite")
    localStorageFile = file
    return file
  }
}
