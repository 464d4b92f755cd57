import NBridgePlugin

/// `nbridge.storage`: key/value preferences that survive restarts, after
/// NSUserDefaults and Capacitor Preferences; any JSON value comes back with its type.
@BridgeActor
public final class StoragePlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "storage")
  /// `get`, `set`, `remove`, `clear` and `keys`, each with an optional `group` namespace and
  /// `secure` (values encrypted with a key from the Secret Service).
  public nonisolated static let definition = PluginDefinition<StoragePlugin>(
    declaration,
    summary: "Key/value preferences in an SQLite database in the app's data dir; values keep their JSON type.",
    actions: [
      Action(
        "get", options: .fields(["key": .string, "defaultValue?": .any, "group?": .string, "secure?": .boolean]),
        result: .any, summary: "The stored value, else defaultValue, else null."
      ) { (plugin, options: KeyOptions, _, reply: Reply<JSONValue>) in
        if options.secure {
          plugin.secure.get(key: options.key, group: options.group, defaultValue: options.defaultValue, reply: reply)
        } else if let text = try plugin.engine.jsonText(forKey: options.key, group: options.group) {
          // The stored text goes to JavaScript as it is: parsed once, there.
          reply.resolve(jsonText: text)
        } else {
          reply.resolve(options.defaultValue)
        }
      },
      Action(
        "set", options: .fields(["key": .string, "value": .any, "group?": .string, "secure?": .boolean]),
        summary: "Stores a JSON value (encrypted when secure); resolves once it is committed to disk.",
        startsAtTurnEnd: true
      ) { (plugin, options: SetOptions, _, reply: Reply<JSONValue>) in
        if options.secure {
          plugin.secure.set(key: options.key, group: options.group, json: options.json, reply: reply)
        } else {
          try plugin.engine.write(.set(group: options.group, key: options.key, json: options.json), answering: reply)
        }
      },
      Action(
        "remove", options: .fields(["key": .string, "group?": .string, "secure?": .boolean]),
        summary: "Removes a key (nothing happens when it is absent).", startsAtTurnEnd: true
      ) { (plugin, options: RemoveOptions, _, reply: Reply<JSONValue>) in
        try plugin.write(.remove(group: options.group, key: options.key), secure: options.secure, reply: reply)
      },
      Action(
        "clear", options: .fields(["group?": .string, "secure?": .boolean]),
        summary: "Removes every key of the group (default: the default group)."
      ) { (plugin, options: GroupOptions, _, reply: Reply<JSONValue>) in
        try plugin.write(.clear(group: options.group), secure: options.secure, reply: reply)
      },
      Action(
        "keys", options: .fields(["group?": .string, "secure?": .boolean]), result: .array(.string),
        summary: "The keys of the group (its secure ones when secure), sorted by their UTF-8 bytes."
      ) { (plugin, options: GroupOptions, _, reply: Reply<[String]>) in
        if options.secure {
          plugin.secure.keys(group: options.group, reply: reply)
        } else {
          reply.resolve(try plugin.engine.keys(group: options.group))
        }
      },
    ])

  let engine: StorageEngine
  /// The `{secure: true}` calls.
  let secure: SecureValues

  /// Finds the data dir's store; the database opens on the first call.
  public init(context: PluginContext) throws {
    engine = StorageEngine.shared(dataDirectory: context.dataDirectory)
    secure = SecureValues(context: context)
  }

  private func write(_ write: StoreWrite, secure: Bool, reply: Reply<JSONValue>) throws {
    if secure { self.secure.write(write, reply: reply) } else { try engine.write(write, answering: reply) }
  }

  /// Commits every pending write before the run ends (`app.exit`, a signal, the end of the script).
  public func stop() async {
    await engine.flush()
    await secure.flush()
  }
}
