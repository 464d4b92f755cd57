import NBridgePlugin

/// A task executor that runs jobs on the loop thread; `StorageEngine.write` enters a
/// preference for it (with an empty body) only to be requeued on the loop's queue,
/// behind the flush it posted, without leaving the loop thread.
///
/// Not used to wait on a continuation: with a continuation resumed inside such a
/// preference, calls of two processes sharing a database were seen never to resume.
/// A job that does reach `enqueue` runs on the loop, isolated to `BridgeActor`.
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
