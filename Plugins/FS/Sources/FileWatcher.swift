import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// `fs.watch`: one inotify descriptor for the run, read on the loop's one `poll` when it is
/// readable. A folder is watched for what happens to its entries; a file through its folder,
/// for its name only, so a file replaced by a rename (as `writeTextFile` and most editors save)
/// is still followed.
@BridgeActor
final class FileWatcher {
  /// One script's watch: what it watches and where its events go.
  final class Subscription {
    let id: Int
    /// The watched folder's descriptor in inotify.
    let descriptor: Int32
    /// For a file: its name in the folder; nil for the folder's every entry.
    let name: String?
    /// The path as the script gave it; events name `given` or `given/<entry>`.
    let given: String
    let send: (JSONValue) -> Void
    let end: (Result<Void, BridgeError>) -> Void

    init(
      id: Int, descriptor: Int32, name: String?, given: String, send: @escaping (JSONValue) -> Void,
      end: @escaping (Result<Void, BridgeError>) -> Void
    ) {
      self.id = id
      self.descriptor = descriptor
      self.name = name
      self.given = given
      self.send = send
      self.end = end
    }
  }

  private let context: PluginContext
  private var fd: Int32 = -1
  private var watch: DescriptorWatch?
  private var subscriptions: [Int: Subscription] = [:]
  private var nextID = 1

  init(context: PluginContext) { self.context = context }

  /// Watches `path` (resolved and checked); `send` gets `{kind, path}` for each change, `end`
  /// is called once when `stop` ends the watch or the watched folder goes away.
  func start(
    _ path: ScopedPath, send: @escaping (JSONValue) -> Void, end: @escaping (Result<Void, BridgeError>) -> Void
  ) throws(BridgeError) -> Int {
    guard let info = try path.status() else { throw path.failure(ENOENT, "watch") }
    let isFolder = info.st_mode & S_IFMT == S_IFDIR
    // The folder to watch, by descriptor: /proc/self/fd/N names the very folder that was checked.
    let folder = isFolder ? openat(path.folder, path.name, PathText.pathOnly | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : dup(path.folder)
    guard folder >= 0 else { throw path.failure(errno, "watch") }
    defer { close(folder) }
    try openDescriptor()
    let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB)
      | UInt32(IN_DELETE_SELF | IN_MOVE_SELF) | UInt32(IN_ONLYDIR)
    let descriptor = inotify_add_watch(fd, "/proc/self/fd/\(folder)", mask)
    guard descriptor >= 0 else {
      if errno == ENOSPC {
        throw .unavailable("the system's limit of inotify watches is reached (fs.inotify.max_user_watches)")
      }
      throw path.failure(errno, "watch")
    }
    let id = nextID
    nextID += 1
    subscriptions[id] = Subscription(
      id: id, descriptor: descriptor, name: isFolder ? nil : path.name, given: path.given, send: send, end: end)
    return id
  }

  /// Ends the watches of `given` (every watch when nil): each resolves; how many ended.
  func stop(_ given: String?) -> Int {
    let ending = subscriptions.values.filter { given == nil || $0.given == given }.sorted { $0.id < $1.id }
    for subscription in ending { finish(subscription, .success(())) }
    return ending.count
  }

  private func finish(_ subscription: Subscription, _ outcome: Result<Void, BridgeError>) {
    guard subscriptions.removeValue(forKey: subscription.id) != nil else { return }
    if !subscriptions.values.contains(where: { $0.descriptor == subscription.descriptor }) {
      inotify_rm_watch(fd, subscription.descriptor)
    }
    subscription.end(outcome)
    if subscriptions.isEmpty { closeDescriptor() }
  }

  private func openDescriptor() throws(BridgeError) {
    guard fd < 0 else { return }
    fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard fd >= 0 else {
      throw .unavailable("cannot watch files: inotify_init1: \(String(cString: strerror(errno)))")
    }
    watch = context.watchReadable(fd) { [weak self] in self?.readEvents() }
  }

  private func closeDescriptor() {
    watch?.cancel()
    watch = nil
    if fd >= 0 { close(fd) }
    fd = -1
  }

  /// Reads what inotify has and hands each event to the watches it concerns; several `modify`s
  /// of one entry in one read are one event.
  private func readEvents() {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var events: [(Int32, UInt32, String)] = []
    while fd >= 0 {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      var offset = 0
      buffer.withUnsafeBytes { raw in
        while offset + MemoryLayout<inotify_event>.size <= count {
          let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          let nameStart = offset + MemoryLayout<inotify_event>.size
          let nameBytes = raw[nameStart..<nameStart + Int(event.len)].prefix { $0 != 0 }
          events.append((event.wd, event.mask, String(decoding: nameBytes, as: UTF8.self)))
          offset = nameStart + Int(event.len)
        }
      }
    }
    var last: (Int32, String, String)?
    for (descriptor, mask, name) in events {
      if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
        for subscription in subscriptions.values where subscription.descriptor == descriptor {
          if subscription.name == nil { subscription.send(["kind": "remove", "path": .string(subscription.given)]) }
          finish(subscription, .success(()))
        }
        continue
      }
      let kind: String
      if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
        kind = "create"
      } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
        kind = "remove"
      } else {
        kind = "modify"
      }
      if let last, last == (descriptor, name, kind), kind == "modify" { continue }
      last = (descriptor, name, kind)
      for subscription in subscriptions.values.sorted(by: { $0.id < $1.id }) where subscription.descriptor == descriptor {
        if let watched = subscription.name {
          guard watched == name else { continue }
          subscription.send(["kind": .string(kind), "path": .string(subscription.given)])
        } else {
          let path = subscription.given.hasSuffix("/") ? subscription.given + name : subscription.given + "/" + name
          subscription.send(["kind": .string(kind), "path": .string(path)])
        }
      }
    }
  }
}
