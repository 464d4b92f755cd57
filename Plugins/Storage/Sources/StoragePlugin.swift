import NBridgePlugin

/// `nbridge.storage`: key/value preferences that survive restarts, after
/// NSUserDefaults and Capacitor Preferences; any JSON value comes back with its type.
@BridgeActor
public final class StoragePlugin: Plugin {
  /// `get`, `set`, `remove`, `clear` and `keys`, each with an optional `group` namespace.
  public nonisolated static let definition = PluginDefinition<StoragePlugin>(
    service: "storage",
    summary: "Key/value preferences in an SQLite database in the app's data dir; values keep their JSON type.",
    actions: [
      Action(
        "get", options: .fields(["key": .string, "defaultValue?": .any, "group?": .string]), result: .any,
        summary: "The stored value, else defaultValue, else null."
      ) { (plugin, options: KeyOptions, _) in
        try plugin.engine.value(forKey: options.key, group: options.group) ?? options.defaultValue
      },
      Action(
        "set", options: .fields(["key": .string, "value": .any, "group?": .string]),
        summary: "Stores a JSON value; resolves once it is committed to disk."
      ) { (plugin, options: SetOptions, _, reply: Reply<JSONValue>) in
        try plugin.engine.write(.set(group: options.group, key: options.key, json: options.json), answering: reply)
      },
      Action(
        "remove", options: .fields(["key": .string, "group?": .string]),
        summary: "Removes a key (nothing happens when it is absent)."
      ) { (plugin, options: RemoveOptions, _, reply: Reply<JSONValue>) in
        try plugin.engine.write(.remove(group: options.group, key: options.key), answering: reply)
      },
      Action(
        "clear", options: .fields(["group?": .string]),
        summary: "Removes every key of the group (default: the default group)."
      ) { (plugin, options: GroupOptions, _, reply: Reply<JSONValue>) in
        try plugin.engine.write(.clear(group: options.group), answering: reply)
      },
      Action(
        "keys", options: .fields(["group?": .string]), result: .array(.string),
        summary: "The keys of the group, sorted by their UTF-8 bytes."
      ) { (plugin, options: GroupOptions, _) in
        try plugin.engine.keys(group: options.group)
      },
    ])

  let engine: StorageEngine

  /// Finds the data dir's store; the database opens on the first call.
  public init(context: PluginContext) throws {
    engine = StorageEngine.shared(dataDirectory: context.dataDirectory)
  }

  /// Commits every pending write before the run ends (`app.exit`, a signal, the end of the script).
  public func stop() async { await engine.flush() }
}
