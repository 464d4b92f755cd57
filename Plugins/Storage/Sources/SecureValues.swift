import NBridgePlugin

/// `{secure: true}` calls of `storage` and `preference`: values sealed with the app's key
/// from the Secret Service, in the `secure_entries` table beside the plain one.
///
/// `get` and `set` need the key and wait for it (`unavailable` when the Secret Service cannot
/// give it); `remove`, `clear` and `keys` neither read nor write a value, so they work without
/// it, after any secure call still waiting for the key (calls keep their order).
@BridgeActor
final class SecureValues {
  private let engine: StorageEngine
  private let appID: String
  private let address: String?
  private let keys: AppKeys

  /// The secure values of the context's data dir, for its app, with the key from the session bus
  /// that `DBUS_SESSION_BUS_ADDRESS` names (also in a headless run: a test points it at a bus of its own).
  init(context: PluginContext, keys: AppKeys = .shared) {
    engine = StorageEngine.shared(dataDirectory: context.dataDirectory, secure: true)
    appID = context.manifest.id
    address = context.environment["DBUS_SESSION_BUS_ADDRESS"]
    self.keys = keys
  }

  /// Commits every pending secure write, also those still waiting for the key.
  func flush() async {
    await keys.settled(appID: appID)
    await engine.flush()
  }

  /// The value of `key` in `group`, decrypted, else `defaultValue`.
  func get(key: String, group: String, defaultValue: JSONValue, reply: Reply<JSONValue>) {
    keys.withKey(appID: appID, address: address) { [engine] appKey in
      reply.settle(
        Result {
          guard let sealed = try engine.text(forKey: key, group: group) else { return defaultValue }
          return try JSONValue(parsing: try SealedValue.open(sealed, key: key, group: group, appKey: appKey.get()))
        })
    }
  }

  /// Stores `json` sealed; `reply` answers once it is committed.
  func set(key: String, group: String, json: String, reply: Reply<JSONValue>) {
    keys.withKey(appID: appID, address: address) { [engine] appKey in
      do {
        let sealed = try SealedValue.seal(json, key: key, group: group, appKey: appKey.get())
        try engine.write(.set(group: group, key: key, json: sealed), answering: reply)
      } catch {
        reply.reject(error)
      }
    }
  }

  /// Queues `write` (a remove or a clear) after the calls waiting for the key.
  func write(_ write: StoreWrite, reply: Reply<JSONValue>) {
    keys.inOrder(appID: appID) { [engine] in
      do { try engine.write(write, answering: reply) } catch { reply.reject(error) }
    }
  }

  /// The secure keys of `group` (their names are not encrypted), after the calls waiting for the key.
  func keys(group: String, reply: Reply<[String]>) {
    keys.inOrder(appID: appID) { [engine] in reply.settle(Result { try engine.keys(group: group) }) }
  }
}
