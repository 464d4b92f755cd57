import Glibc

/// A value computed on a thread of its own, started at once, so that work that waits in the
/// kernel (a few file system calls) overlaps what the caller does meanwhile; `value` waits for it.
///
/// `value` is read from one thread at a time (a plugin's, on the loop); the thread's write is
/// seen there through `pthread_join`. When no thread can be started the work runs at once.
public final class ThreadedValue<Value>: @unchecked Sendable {
  private var thread: pthread_t?
  private var result: Value?

  /// Starts `work` on a new thread.
  public init(_ work: @escaping @Sendable () -> Value) {
    let body = ThreadBody { [self] in result = work() }
    let box = Unmanaged.passRetained(body).toOpaque()
    var handle = pthread_t()
    let started = pthread_create(
      &handle, nil,
      { raw in
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().run()
        return nil
      }, box)
    if started == 0 {
      thread = handle
    } else {
      Unmanaged<ThreadBody>.fromOpaque(box).release()
      result = work()
    }
  }

  deinit {
    // Never read: the thread ends on its own (this may run on it, which cannot join itself).
    if let thread { pthread_detach(thread) }
  }

  /// The value, once the thread has ended (it is joined on the first read).
  public var value: Value {
    if let thread {
      pthread_join(thread, nil)
      self.thread = nil
    }
    return result!
  }
}

/// What a `ThreadedValue`'s thread runs (non-generic: a C thread entry cannot capture a generic type).
private final class ThreadBody {
  let run: () -> Void
  init(_ run: @escaping () -> Void) { self.run = run }
}
