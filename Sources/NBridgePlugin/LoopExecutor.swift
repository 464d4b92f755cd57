import NBridgeSystem
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The serial executor of the runtime's loop thread: jobs enqueued from any thread
/// run on the loop, in order, when the loop next turns.
///
/// There is one loop per process at a time (one JS context per run); `BridgeActor`
/// is bound to it, so plugin code isolated to `@BridgeActor` always runs there.
package final class LoopExecutor: SerialExecutor, @unchecked Sendable {
  /// The process's loop executor.
  package static let shared = LoopExecutor()

  private enum Work {
    case job(UnownedJob)
    case closure(@Sendable () -> Void)
  }

  private let queue = Mutex<[Work]>([])
  /// Becomes readable when work is queued from another thread; the loop polls it.
  private let wakeSignal: WakeSignal
  private let owner = Atomic<UInt>(0)

  private init() {
    do {
      wakeSignal = try WakeSignal()
    } catch {
      fatalError("nbridge: \(error) for the loop")
    }
  }

  /// The descriptor the loop polls: readable when work is queued from another thread.
  package var wakeDescriptor: Int32 { wakeSignal.descriptor }

  /// Held while a thread is bound: one loop at a time per process (tests run loops on many threads).
  private let ownership: UnsafeMutablePointer<pthread_mutex_t> = {
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    return mutex
  }()

  /// Binds the executor to the calling thread, which becomes the loop thread; waits while
  /// another thread's loop holds it.
  package func bindToCurrentThread() {
    pthread_mutex_lock(ownership)
    owner.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
  }

  /// Unbinds it when the loop ends (on the thread that bound it).
  package func unbind() {
    owner.store(0, ordering: .releasing)
    pthread_mutex_unlock(ownership)
  }

  /// Whether the caller is on the loop thread.
  package var isOnLoopThread: Bool {
    owner.load(ordering: .acquiring) == UInt(bitPattern: Int(bitPattern: pthread_self()))
  }

  /// Queues a job of a task isolated to `BridgeActor`.
  package func enqueue(_ job: consuming ExecutorJob) {
    push(.job(UnownedJob(job)))
  }

  /// Queues a closure to run on the loop thread; safe from any thread.
  package func post(_ work: @escaping @Sendable () -> Void) {
    push(.closure(work))
  }

  private func push(_ work: Work) {
    let wasEmpty = queue.withLock { q in
      q.append(work)
      return q.count == 1
    }
    // The loop thread itself needs no wake-up: it checks for queued work before it blocks.
    if wasEmpty && !isOnLoopThread { wakeSignal.wake() }
  }

  /// Empties the wake pipe; the loop calls this when poll(2) finds it readable.
  package func drainWakeups() {
    wakeSignal.drain()
  }

  /// Whether work is queued.
  package var hasWork: Bool { queue.withLock { !$0.isEmpty } }

  /// Runs the work queued so far (not what it queues in turn); returns how many ran.
  /// Only the loop thread calls this.
  @discardableResult
  package func runQueued() -> Int {
    let batch = queue.withLock { q in
      let taken = q
      q.removeAll(keepingCapacity: true)
      return taken
    }
    for work in batch {
      switch work {
      case .job(let job): job.runSynchronously(on: asUnownedSerialExecutor())
      case .closure(let body): body()
      }
    }
    return batch.count
  }

  /// Traps when called off the loop thread (used by `assumeIsolated`).
  package func checkIsolated() {
    precondition(isOnLoopThread, "nbridge: BridgeActor code ran off the loop thread")
  }

  /// Whether the current thread is the loop thread (Swift 6.2 isolation check).
  package func isIsolatingCurrentContext() -> Bool? { isOnLoopThread }

  /// This executor as an unowned reference.
  package func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}
