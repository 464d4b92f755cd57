import NBridgePlugin

/// `nbridge.preference`: WKBridgeKit's preference service, on the same store as
/// `storage` (its default group), so WKBridgeKit web code runs unchanged.
@BridgeActor
public final class PreferencePlugin: Plugin {
  /// The service name, permission and launch, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "preference", permission: "storage")
  /// `get`, `set` and `remove` with WKBridgeKit's option names (and `secure`, as NBridgeKit's
  /// SecureSharedPreferences); guarded by the `storage` permission.
  public nonisolated static let definition = PluginDefinition<PreferencePlugin>(
    declaration,
    summary: "WKBridgeKit's preference service: the storage plugin's default group under its names.",
    actions: [
      Action(
        "get", options: .fields(["key": .string, "defaultValue?": .any, "secure?": .boolean]), result: .any,
        summary: "The stored value, else defaultValue, else null."
      ) { (plugin, options: PreferenceGetOptions, _, reply: Reply<JSONValue>) in
        let group = StorageLimits.defaultGroup
        if options.secure {
          plugin.secure.get(key: options.key, group: group, defaultValue: options.defaultValue, reply: reply)
        } else {
          reply.resolve(try plugin.engine.value(forKey: options.key, group: group) ?? options.defaultValue)
        }
      },
      Action(
        "set", options: .fields(["key": .string, "value": .any, "secure?": .boolean]),
        summary: "Stores a JSON value (encrypted when secure); resolves once it is committed to disk."
      ) { (plugin, options: PreferenceSetOptions, _, reply: Reply<JSONValue>) in
        let group = StorageLimits.defaultGroup
        if options.secure {
          plugin.secure.set(key: options.key, group: group, json: options.json, reply: reply)
        } else {
          try plugin.engine.write(.set(group: group, key: options.key, json: options.json), answering: reply)
        }
      },
      Action("remove", options: .fields(["key": .string, "secure?": .boolean]), summary: "Removes a key.") {
        (plugin, options: PreferenceKeyOptions, _, reply: Reply<JSONValue>) in
        let write = StoreWrite.remove(group: StorageLimits.defaultGroup, key: options.key)
        if options.secure {
          plugin.secure.write(write, reply: reply)
        } else {
          try plugin.engine.write(write, answering: reply)
        }
      },
    ])

  let engine: StorageEngine
  /// The `{secure: true}` calls, on the same secure values as `storage`'s.
  let secure: SecureValues

  /// Finds the data dir's store, shared with `storage`.
  public init(context: PluginContext) throws {
    engine = StorageEngine.shared(dataDirectory: context.dataDirectory)
    secure = SecureValues(context: context)
  }

  /// Commits every pending write before the run ends.
  public func stop() async {
    await engine.flush()
    await secure.flush()
  }
}
