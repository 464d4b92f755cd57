import NBridgePlugin
import NBridgeSystem

/// `nbridge.fs`: files within the app's scope: its own data, cache and config folders, the
/// manifest's `fs.scope`, and what the user picked in a dialog.
@BridgeActor
public final class FSPlugin: Plugin {
  /// The most a text or bytes read returns: 64 MiB.
  static let readLimit = 64 << 20

  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "fs")
  /// The service's actions.
  public nonisolated static let definition = PluginDefinition<FSPlugin>(
    declaration,
    summary: "Files in the app's scope: its data, cache and config folders, the manifest's fs.scope, the user's picks.",
    actions: [
      Action("paths", result: FSShapes.paths, summary: "The app's own folders: {data, cache, config}.") {
        (plugin, _: NoOptions, _) -> JSONValue in
        let folders = plugin.scope.folders
        return ["data": .string(folders.data), "cache": .string(folders.cache), "config": .string(folders.config)]
      },
      Action(
        "readTextFile", result: .string,
        summary: "A file's UTF-8 text (at most 64 MiB)."
      ) { (plugin, options: PathOptions, _) -> String in
        let bytes = try plugin.scope.resolve(options.path, field: "path").readBytes(
          limit: readLimit, action: "readTextFile")
        guard let text = bytes.withUnsafeBytes({ String(validating: $0, as: UTF8.self) }) else {
          throw BridgeError.invalidParameter(
            "path", "names a file that is not UTF-8 text (readFile reads its bytes): \(JSONValue.string(options.path).jsonText)")
        }
        return text
      },
      Action("readFile", result: .bytes, summary: "A file's bytes as a Uint8Array (at most 64 MiB).") {
        (plugin, options: PathOptions, _) -> Bytes in
        try plugin.scope.resolve(options.path, field: "path").readBytes(limit: readLimit, action: "readFile")
      },
      Action(
        "writeTextFile",
        summary: "Replaces a file with UTF-8 text at once (a temporary file, fsync, rename)."
      ) { (plugin, options: TextWriteOptions, _) -> JSONValue in
        try plugin.scope.resolve(options.path, field: "path").replace(with: Array(options.contents.utf8))
        return .null
      },
      // Declared, not recorded: a page's prelude turns a typed array into Base64 only in the
      // fields an action declares as bytes (ShapeDriftTests holds every Bytes field to that).
      Action(
        "writeFile", options: FSShapes.bytesWrite,
        summary: "Replaces a file with bytes at once (a temporary file, fsync, rename)."
      ) { (plugin, options: BytesWriteOptions, _) -> JSONValue in
        try plugin.scope.resolve(options.path, field: "path").replace(with: options.data.bytes)
        return .null
      },
      Action(
        "appendFile", options: FSShapes.append,
        summary: "Appends text (contents) or bytes (data) to a file, made when missing."
      ) { (plugin, options: AppendOptions, _) -> JSONValue in
        let bytes: [UInt8]
        switch (options.contents, options.data) {
        case (let text?, nil): bytes = Array(text.utf8)
        case (nil, let data?): bytes = data.bytes
        default: throw BridgeError.invalidParameter("contents", "or \"data\" must be given, one of the two")
        }
        try plugin.scope.resolve(options.path, field: "path").append(bytes)
        return .null
      },
      Action("exists", result: .boolean, summary: "Whether the path names something.") {
        (plugin, options: PathOptions, _) -> Bool in
        try plugin.scope.exists(options.path, field: "path")
      },
      Action(
        "stat", result: FSShapes.stat,
        summary: "{kind, size, modified, accessed, mode} of a file or folder (a link is followed)."
      ) { (plugin, options: PathOptions, _) -> JSONValue in
        try plugin.scope.resolve(options.path, field: "path").describe()
      },
      Action("readDir", result: FSShapes.entries, summary: "A folder's entries: [{name, kind}], by name.") {
        (plugin, options: PathOptions, _) -> JSONValue in
        try plugin.scope.resolve(options.path, field: "path").list()
      },
      Action("mkdir", summary: "Makes a folder; recursive: its missing parents too, and an existing folder is fine.") {
        (plugin, options: TreeOptions, _) -> JSONValue in
        if options.recursive == true {
          try plugin.scope.makeFolders(options.path, field: "path")
        } else {
          try plugin.scope.resolve(options.path, field: "path", follow: false).makeFolder()
        }
        return .null
      },
      Action("remove", summary: "Removes a file, a link or an empty folder; recursive: a folder and all it holds.") {
        (plugin, options: TreeOptions, _) -> JSONValue in
        try plugin.scope.resolve(options.path, field: "path", follow: false).remove(recursive: options.recursive == true)
        return .null
      },
      Action("rename", summary: "Moves a file or folder (replacing a file at the target), at once.") {
        (plugin, options: MoveOptions, _) -> JSONValue in
        let source = try plugin.scope.resolve(options.from, field: "from", follow: false)
        let target = try plugin.scope.resolve(options.to, field: "to", follow: false)
        try source.move(to: target)
        return .null
      },
      Action("copyFile", summary: "Copies a file, replacing the target at once.") {
        (plugin, options: MoveOptions, _) -> JSONValue in
        let source = try plugin.scope.resolve(options.from, field: "from")
        let target = try plugin.scope.resolve(options.to, field: "to")
        try target.copy(from: source)
        return .null
      },
      Action(
        "watch", result: .void, streams: FSShapes.change,
        summary: "Sends each change of a file or a folder's entries to retainCallback until unwatch(), then resolves."
      ) { (plugin, options: PathOptions, call, reply: Reply<JSONValue>) in
        guard call.canStream else {
          throw BridgeError.invalidParameter("retainCallback", "must be a function: watch streams changes to it")
        }
        let path = try plugin.scope.resolve(options.path, field: "path")
        _ = try plugin.watcher.start(path, send: { try? call.send($0) }) { outcome in
          reply.settle(outcome.map { JSONValue.null }.mapError { $0 as any Error })
        }
      },
      Action(
        "unwatch", result: FSShapes.count,
        summary: "Ends the watches of a path (every watch without one); each resolves. {count} ended."
      ) { (plugin, options: OptionalPathOptions, _) -> JSONValue in
        ["count": .number(Double(plugin.watcher.stop(options.path)))]
      },
      Action(
        "forget", result: FSShapes.count,
        summary: "Takes back the user's pick of a path (every pick without one): {count} taken back."
      ) { (plugin, options: OptionalPathOptions, _) -> JSONValue in
        if let path = options.path { try PathText.check(path, field: "path") }
        return ["count": .number(Double(try plugin.scope.grants.forget(options.path)))]
      },
      Action(
        "simulatePick",
        summary: "Records a pick as the dialog does when the user picks a path: nbridge test only."
      ) { (plugin, options: PickOptions, _) -> JSONValue in
        guard plugin.context.headless else {
          throw BridgeError.unavailable("simulatePick answers only under nbridge test; the user picks paths in a dialog")
        }
        try plugin.scope.grants.record(options.path, folder: options.folder == true)
        return .null
      },
    ])

  let context: PluginContext
  let scope: FileScope
  lazy var watcher = FileWatcher(context: context)

  /// A plugin for the run `context` describes; the app's folders are made now.
  public init(context: PluginContext) throws {
    self.context = context
    let folders = AppFolders(
      appID: context.manifest.id, dataDirectory: context.dataDirectory, environment: context.environment,
      contained: context.headless)
    for folder in [folders.data, folders.cache, folders.config] { try? POSIX.makeDirectories(folder) }
    scope = FileScope(
      folders: folders, entries: context.manifest.fs?.scope ?? [],
      grants: FileGrants(dataDirectory: context.dataDirectory))
  }

  /// Ends every watch (each resolves) when the run ends.
  public func stop() async { _ = watcher.stop(nil) }
}
