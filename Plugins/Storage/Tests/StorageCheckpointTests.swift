import Dispatch
import Foundation
import NBridgePlugin
import NBridgeTesting
import Synchronization
import Testing

@testable import NBridgeStorage

/// How the engine checkpoints the write-ahead log: on the writer thread, with the loop's commits held back meanwhile.
@Suite struct StorageCheckpointTests {
  @Test func whileTheWriterThreadCheckpointsTheLoopCommitsNothingAndWritesWaitBehindIt() async throws {
    let store = GatedStore()
    let events = try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: "/gated/storage.sqlite") { _ in store }
      // The first commit (on the loop) makes a checkpoint due; it starts on the writer thread and waits there.
      try await engine.write(.set(group: "", key: "a", json: "1"))
      try #require(await waitLettingTheLoopRun(timeout: 20) { store.checkpointStarted }, "the checkpoint started")
      // A write meanwhile goes to the writer thread, behind the checkpoint, not to the loop's connection.
      let done = DoneFlag()
      try engine.write(.set(group: "", key: "b", json: "2")) { result in
        if case .success = result { done.value = true }
      }
      try #require(
        await waitLettingTheLoopRun(timeout: 20) { engine.transactionsOnWriter == 1 }, "the write went to the writer thread")
      let doneBeforeCheckpoint = done.value
      store.checkpointGate.signal()
      await engine.flush()
      #expect(!doneBeforeCheckpoint, "a write committed before the checkpoint queued ahead of it")
      #expect(done.value)
      // Once the checkpoint is over, the loop commits again.
      try await engine.write(.set(group: "", key: "c", json: "3"))
      return store.events
    }
    #expect(events == ["loop a", "checkpoint", "checkpointed", "writer b", "loop c"])
  }

  @Test func awaitedSetsOneAfterAnotherKeepTheWriteAheadLogBounded() async throws {
    let dir = try TemporaryDirectory()
    let path = dir.file("storage.sqlite")
    let json = "\"" + String(repeating: "v", count: 1000) + "\""
    let (wal, count) = try await NBridgeTest.onLoop {
      let engine = StorageEngine(path: path)
      // 10,000 commits of a 1 KB value, each on its own (40 MiB of frames without checkpoints): the
      // loop commits one every few microseconds while each checkpoint copies the log.
      for i in 0..<10_000 { try await engine.write(.set(group: "", key: "\(i)", json: json)) }
      await engine.flush()
      let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
      return (wal, try engine.keys(group: "").count)
    }
    #expect(wal > 0 && wal < 12_000_000, "\(wal) bytes of write-ahead log")
    #expect(count == 10_000)
  }
}

/// A store that records what ran where, whose checkpoint is due until it has run once and
/// waits for the test to let it finish.
private final class GatedStore: KeyValueStore {
  /// Lets `checkpoint` return.
  let checkpointGate = DispatchSemaphore(value: 0)
  private let log = Mutex<[String]>([])
  private let due = Atomic<Bool>(true)

  /// What ran, in order: "loop k" / "writer k" for a commit of key k, and the checkpoint.
  var events: [String] { log.withLock { $0 } }
  var checkpointStarted: Bool { events.contains("checkpoint") }

  private func record(_ event: String) { log.withLock { $0.append(event) } }
  private func record(_ writes: [StoreWrite], on thread: String) {
    for case .set(_, let key, _) in writes { record("\(thread) \(key)") }
  }

  func value(forKey key: String, group: String) throws -> String? { nil }
  func keys(group: String) throws -> [String] { [] }
  func applyIfUnlocked(_ writes: [StoreWrite]) throws -> Bool {
    record(writes, on: "loop")
    return true
  }
  func apply(_ writes: [StoreWrite]) throws { record(writes, on: "writer") }
  var checkpointDue: Bool { due.load(ordering: .relaxed) }
  var checkpointOverdue: Bool { checkpointDue }
  func checkpoint() {
    record("checkpoint")
    due.store(false, ordering: .relaxed)
    checkpointGate.wait()
    record("checkpointed")
  }
}
