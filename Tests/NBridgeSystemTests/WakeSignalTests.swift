import Glibc
import NBridgeSystem
import Synchronization
import Testing

/// `WakeSignal`, the one wake primitive: a thread blocked in `poll(2)` wakes when another thread
/// calls `wake()`, wakes coalesce into one byte until drained, and a loop built on it (no
/// JavaScriptCore) loses no work however producer and loop interleave.
@Suite struct WakeSignalTests {
  @Test func aThreadBlockedInPollWakesWhenAnotherThreadWakesIt() throws {
    let signal = try WakeSignal()
    let woke = Atomic<Int>(-1)
    let started = Clock()
    let waiter = Thread.start {
      // Without the wake this would wait 20 s.
      woke.store(signal.wait(milliseconds: 20_000) ? 1 : 0, ordering: .releasing)
    }
    signal.wake()
    waiter.join()
    let readable = woke.load(ordering: .acquiring)
    #expect(readable == 1)
    #expect(started.elapsedMilliseconds < 10_000)
  }

  @Test func wakesCoalesceIntoOneByteUntilDrained() throws {
    let signal = try WakeSignal()
    #expect(!signal.wait(milliseconds: 0), "a new signal is not readable")
    let threads = (0..<4).map { _ in Thread.start { for _ in 0..<1000 { signal.wake() } } }
    for thread in threads { thread.join() }
    #expect(Self.unread(signal.descriptor) == 1, "4,000 wakes, one byte in the pipe")
    #expect(signal.wait(milliseconds: 0))
    signal.drain()
    #expect(Self.unread(signal.descriptor) == 0)
    #expect(!signal.wait(milliseconds: 0), "drained: no longer readable")
    signal.wake()
    #expect(signal.wait(milliseconds: 0), "a wake after the drain is seen again")
  }

  @Test func bothEndsAreNonblockingAndClosedOnExec() throws {
    let signal = try WakeSignal()
    for fd in [signal.descriptor, signal.writer] {
      #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
      #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    }
    // Draining an empty pipe returns at once instead of blocking.
    signal.drain()
  }

  @Test func itsDescriptorsAreClosedWhenItGoes() throws {
    var signal: WakeSignal? = try WakeSignal()
    let ends = [signal!.descriptor, signal!.writer]
    let before = ends.map(Self.target)
    #expect(before.allSatisfy { $0?.hasPrefix("socket:") == true })
    signal = nil
    // Gone, or the number reused by another test for something else.
    for (fd, target) in zip(ends, before) { #expect(Self.target(fd) != target) }
  }

  /// A loop like the runtime's: one thread polls the signal and takes the queued work; another
  /// queues 20,000 items, waking it after each. Every item arrives, in order, and the loop never
  /// waits out its bound (a wake lost between `drain` and the next `poll` would make it).
  @Test func aLoopOnItTakesEveryItemQueuedFromAnotherThread() throws {
    let signal = try WakeSignal()
    let queue = Mutex<[Int]>([])
    let total = 20_000
    let received = Mutex<[Int]>([])
    let timedOut = Atomic<Bool>(false)
    let loop = Thread.start {
      var taken: [Int] = []
      while taken.count < total {
        let work = queue.withLock { q in
          let batch = q
          q.removeAll()
          return batch
        }
        taken += work
        if !work.isEmpty || taken.count == total { continue }
        guard signal.wait(milliseconds: 10_000) else {
          timedOut.store(true, ordering: .releasing)
          break
        }
        signal.drain()
      }
      received.withLock { $0 = taken }
    }
    for item in 0..<total {
      queue.withLock { $0.append(item) }
      signal.wake()
    }
    loop.join()
    let waitedOut = timedOut.load(ordering: .acquiring)
    let items = received.withLock { $0 }
    #expect(!waitedOut)
    #expect(items == Array(0..<total))
  }

  /// A signal handler's byte (its signal's number, written with `Signals.post`) reaches `drain`;
  /// `wake()`'s own byte does not.
  @Test func aSignalHandlersByteReachesDrainAndAWakesDoesNot() throws {
    let pipe = try WakeSignal()
    testSignalWriter = pipe.writer
    Signals.install([SIGUSR2], handler: { number in Signals.post(number, to: testSignalWriter) })
    defer { signal(SIGUSR2, SIG_DFL) }
    pipe.wake()
    raise(SIGUSR2)
    var numbers: [Int32] = []
    pipe.drain { numbers.append(Int32($0)) }
    #expect(numbers == [SIGUSR2])
  }

  /// `Signals.install(_:screen:)`: one pipe for the process (a second install returns the
  /// same one), each signal's number on it, and a screen that keeps a signal off it.
  @Test func installedSignalsReachTheProcesssOnePipeUnlessScreened() throws {
    let first = try Signals.install([SIGURG])
    let second = try Signals.install([SIGURG, SIGWINCH])
    // Two signals whose default is to be ignored: the test process lives whatever comes when.
    defer {
      signal(SIGURG, SIG_DFL)
      signal(SIGWINCH, SIG_DFL)
    }
    #expect(first === second)
    raise(SIGURG)
    raise(SIGWINCH)
    var numbers: [Int32] = []
    second.drain { numbers.append(Int32($0)) }
    #expect(numbers == [SIGURG, SIGWINCH])
    _ = try Signals.install([SIGURG, SIGWINCH], screen: { $0 != SIGURG })
    raise(SIGURG)
    raise(SIGWINCH)
    numbers = []
    second.drain { numbers.append(Int32($0)) }
    #expect(numbers == [SIGWINCH])
  }

  /// Bytes waiting in the pipe (`FIONREAD`).
  static func unread(_ fd: Int32) -> Int32 {
    var count: Int32 = 0
    _ = ioctl(fd, UInt(FIONREAD), &count)
    return count
  }

  /// What `/proc/self/fd/<fd>` links to, nil when `fd` is closed.
  static func target(_ fd: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    let count = readlink("/proc/self/fd/\(fd)", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}

/// The writing end the test's SIGUSR2 handler writes to.
nonisolated(unsafe) private var testSignalWriter: Int32 = -1

/// A pthread running a closure, joined by the test.
struct Thread {
  let handle: pthread_t

  static func start(_ body: @escaping @Sendable () -> Void) -> Thread {
    final class Box: @unchecked Sendable {
      let body: @Sendable () -> Void
      init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var handle = pthread_t()
    let box = Unmanaged.passRetained(Box(body)).toOpaque()
    let result = pthread_create(
      &handle, nil,
      { raw in
        Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
      }, box)
    precondition(result == 0, "pthread_create failed")
    return Thread(handle: handle)
  }

  func join() { pthread_join(handle, nil) }
}

/// Milliseconds since it was made (CLOCK_MONOTONIC).
private struct Clock {
  let start = Clock.now()

  static func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }

  var elapsedMilliseconds: Int64 { Clock.now() - start }
}
