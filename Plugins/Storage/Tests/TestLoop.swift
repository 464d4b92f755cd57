import Glibc
import NBridgePlugin

/// Runs the process's loop executor on a thread of its own, so `@BridgeActor` code
/// (the storage engine) can run in these tests without a whole runtime.
enum TestLoop {
  private static let thread: Void = {
    var thread = pthread_t()
    let status = pthread_create(
      &thread, nil,
      { _ in
        let loop = LoopExecutor.shared
        loop.bindToCurrentThread()
        var wake = pollfd(fd: loop.wakeDescriptor, events: Int16(POLLIN), revents: 0)
        while true {
          if loop.runQueued() == 0 { _ = poll(&wake, 1, 1000) }
        }
      }, nil)
    precondition(status == 0, "cannot start the test loop thread")
  }()

  /// Starts the loop thread (once per process) and runs `body` on it.
  static func run<T: Sendable>(_ body: @BridgeActor @Sendable () async throws -> T) async throws -> T {
    _ = thread
    return try await body()
  }
}
