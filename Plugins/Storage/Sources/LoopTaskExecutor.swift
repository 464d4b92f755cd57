import NBridgePlugin

/// A task executor that runs jobs on the loop thread, for waits that resume on the loop.
///
/// Swift resumes a task suspended in `withCheckedContinuation` on the generic executor
/// (a thread of the global pool), which then hops back to the loop: two thread switches
/// and a wake-up of each thread per resumed call. A task that prefers this executor
/// (`withTaskExecutorPreference`) is queued on the loop instead, and its job runs
/// there isolated to `BridgeActor`, so it goes on without another hop.
final class LoopTaskExecutor: TaskExecutor {
  /// The one instance.
  static let shared = LoopTaskExecutor()

  private init() {}

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    LoopExecutor.shared.post { [self] in
      job.runSynchronously(
        isolatedTo: LoopExecutor.shared.asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
    }
  }
}
