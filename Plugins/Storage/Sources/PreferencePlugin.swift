import NBridgePlugin

/// `nbridge.preference`: WKBridgeKit's preference service, on the same store as
/// `storage` (its default group), so WKBridgeKit web code runs unchanged.
@BridgeActor
public final class PreferencePlugin: Plugin {
  /// `get`, `set` and `remove` with WKBridgeKit's option names; guarded by the `storage` permission.
  public nonisolated static let definition = PluginDefinition<PreferencePlugin>(
    service: "preference", permission: "storage",
    summary: "WKBridgeKit's preference service: the storage plugin's default group under its names.",
    actions: [
      Action(
        "get", options: .fields(["key": .string, "defaultValue?": .any]), result: .any,
        summary: "The stored value, else defaultValue, else null."
      ) { (plugin, options: PreferenceGetOptions, _) in
        try plugin.engine.value(forKey: options.key, group: StorageLimits.defaultGroup) ?? options.defaultValue
      },
      Action(
        "set", options: .fields(["key": .string, "value": .any]),
        summary: "Stores a JSON value; resolves once it is committed to disk."
      ) { (plugin, options: PreferenceSetOptions, _, reply: Reply<JSONValue>) in
        try plugin.engine.write(.set(group: StorageLimits.defaultGroup, key: options.key, json: options.json), answering: reply)
      },
      Action("remove", options: .fields(["key": .string]), summary: "Removes a key.") {
        (plugin, options: PreferenceKeyOptions, _, reply: Reply<JSONValue>) in
        try plugin.engine.write(.remove(group: StorageLimits.defaultGroup, key: options.key), answering: reply)
      },
    ])

  let engine: StorageEngine

  /// Finds the data dir's store, shared with `storage`.
  public init(context: PluginContext) throws {
    engine = StorageEngine.shared(dataDirectory: context.dataDirectory)
  }

  /// Commits every pending write before the run ends.
  public func stop() async { await engine.flush() }
}
