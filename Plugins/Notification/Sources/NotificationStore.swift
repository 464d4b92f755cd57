import NBridgeSystem
import Dispatch
import NBridgePlugin
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The plugin's two small JSON files in the app's data dir: pending schedules and the
/// delivered history (newest first).
///
/// Reads are synchronous (the files are small and read once). Writes are encoded and
/// replace a file atomically (temporary file, `fsync`, `rename`) on one serial background
/// queue, so the loop never waits on the disk and the newest snapshot always lands last.
@BridgeActor
final class NotificationStore {
  /// `notification-pending.json` in the data dir.
  let pendingPath: String
  /// `notification-delivered.json` in the data dir.
  let deliveredPath: String
  private let warn: @Sendable (String) -> Void
  /// Made on the first write: a run that writes nothing starts no thread.
  private var writeQueue: DispatchQueue?
  private let snapshots = Snapshots()

  /// A store in `directory`; write failures go to `warn`.
  init(directory: String, warn: @escaping @Sendable (String) -> Void) {
    pendingPath = directory + "/notification-pending.json"
    deliveredPath = directory + "/notification-delivered.json"
    self.warn = warn
  }

  /// The notifications kept at `path`; empty when there is no file, with a warning when it is unreadable.
  func load(_ path: String) -> [StoredNotification] {
    guard let text = POSIX.readText(path) else { return [] }
    do {
      return try JSONValueDecoder().decode([StoredNotification].self, from: JSONValue(parsing: text))
    } catch {
      warn("ignoring \(path): \(error)")
      return []
    }
  }

  /// Replaces the file at `path` with `notifications`, returning once it is on disk.
  func save(_ notifications: [StoredNotification], to path: String) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      enqueue(notifications, path) { done.resume() }
    }
  }

  /// Replaces the file at `path` with `notifications` in the background.
  func saveSoon(_ notifications: [StoredNotification], to path: String) {
    enqueue(notifications, path, then: nil)
  }

  /// Returns once every write asked for so far is on disk.
  func flush() async {
    guard let writeQueue else { return }
    await Self.drain(writeQueue)
  }

  /// Returns once `queue` has run what it holds. Its own function: the continuation's type is
  /// made at run time (about 0.19 M instructions under callgrind), which `flush`, inlined into
  /// the plugin's `stop`, did at the end of every run, written or not.
  @inline(never)
  private static func drain(_ queue: DispatchQueue) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
  }

  /// Queues a write of the newest snapshot for `path`; a write already queued and not yet
  /// started takes the newer snapshot instead, so a burst of deliveries costs one write.
  private func enqueue(_ notifications: [StoredNotification], _ path: String, then: (@Sendable () -> Void)?) {
    let alreadyQueued = snapshots.latest.withLock { latest in latest.updateValue(notifications, forKey: path) != nil }
    if alreadyQueued && then == nil { return }
    let queue = writeQueue ?? DispatchQueue(label: "nbridge.notification.store")
    writeQueue = queue
    queue.async { [snapshots, warn] in
      if let snapshot = snapshots.latest.withLock({ $0.removeValue(forKey: path) }) {
        let text = ((try? JSONValueEncoder().encode(snapshot)) ?? .array([])).jsonText
        do { try POSIX.writeAtomically(path, Array(text.utf8)) } catch { warn("\(error)") }
      }
      then?()
    }
  }
}

/// The newest snapshot of each file that is waiting to be written, shared with the write queue.
private final class Snapshots: Sendable {
  let latest = Mutex<[String: [StoredNotification]]>([:])
}
