import Foundation
import Testing

/// A suite trait, `@Suite(.onTestThreads)`: each of the suite's tests runs on one of
/// `TestThreads`' threads instead of Swift's cooperative ones.
///
/// Swift Testing starts every test at once and runs them on the cooperative threads, one per
/// core. A test that waits for a child process (`ChildProcess.wait`, `waitUntil`, `Xvfb`'s
/// socket, ...) holds its thread while it waits, so on a 2-core machine two waiting tests held
/// every cooperative thread, the CPU idle and the other tests queued behind them. On these
/// threads a test waits as before, with the same bounds; only the number that wait at once grows.
public struct OnTestThreads: SuiteTrait, TestTrait, TestScoping {
  /// The threads the tests run on.
  let pool: TestThreads

  /// Applies to every test of the suite it marks (and of the suites nested in it).
  public var isRecursive: Bool { true }

  /// Runs the test case `function` (each case of a parameterized test on its own) with
  /// `pool` as its task executor; the suite itself is not run there.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil else { return try await function() }
    try await withTaskExecutorPreference(pool) { try await function() }
  }
}

extension Trait where Self == OnTestThreads {
  /// Runs each test of the suite on `TestThreads`' threads (see `OnTestThreads`).
  public static var onTestThreads: OnTestThreads { OnTestThreads(pool: .shared) }

  /// Runs each test of the suite on `pool`'s threads. A serialized suite whose tests make a long
  /// chain takes a thread of its own (`TestThreads(count: 1)`): in the shared pool its first test
  /// queued behind every test that came before it (about a minute of BundleTests' in CLITests'
  /// run), and the target's run could not end before the chain did.
  public static func onTestThreads(_ pool: TestThreads) -> OnTestThreads { OnTestThreads(pool: pool) }
}

/// A fixed pool of threads running the jobs of the tests marked `.onTestThreads`, first come first
/// served: as many of those tests run at once as there are threads, whether they compute or wait.
public final class TestThreads: TaskExecutor, @unchecked Sendable {
  /// The pool the tests share: `$NBRIDGE_TEST_THREADS` threads, else three per core and at least
  /// four (tests mostly wait for the processes they start).
  public static let shared = TestThreads(
    count: ProcessInfo.processInfo.environment["NBRIDGE_TEST_THREADS"].flatMap { Int($0) }
      ?? max(4, 3 * ProcessInfo.processInfo.activeProcessorCount))

  /// How many threads run jobs.
  public let count: Int
  private let condition = NSCondition()
  /// Jobs not started yet, oldest first (guarded by `condition`).
  private var queue: [UnownedJob] = []
  /// Where the next job is taken from `queue` (guarded by `condition`).
  private var next = 0

  /// Starts `count` threads (at least one) that run enqueued jobs until the process ends.
  public init(count: Int) {
    self.count = max(1, count)
    for index in 0..<self.count {
      let thread = Thread { [self] in runJobs() }
      thread.name = "test thread \(index + 1)"
      thread.start()
    }
  }

  /// Queues `job` to run on the first thread free.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    queue.append(job)
    condition.signal()
    condition.unlock()
  }

  /// One thread's loop: takes the oldest job, runs it, and waits when there is none.
  private func runJobs() {
    while true {
      condition.lock()
      while next == queue.count { condition.wait() }
      let job = queue[next]
      next += 1
      if next == queue.count {
        queue.removeAll(keepingCapacity: true)
        next = 0
      }
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
