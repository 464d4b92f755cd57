#if canImport(Glibc)
  import Glibc
#endif

/// Signals turned into bytes on a `WakeSignal` (the self-pipe trick): a handler only writes the
/// signal's number with `write(2)`, the one thing it may safely do; the thread that polls the
/// pipe acts on it.
package enum Signals {
  /// Unblocks `signals` for the calling thread (a parent may start us with them blocked, as
  /// threaded test runners do) and sets `handler` for each with `signal(2)`.
  package static func install(_ signals: [Int32], handler: @escaping @convention(c) (Int32) -> Void) {
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for number in signals { sigaddset(&unblock, number) }
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    for number in signals { signal(number, handler) }
  }

  /// Ignores `number` (SIGPIPE: a closed peer is an error from `write`, not the end of the process).
  package static func ignore(_ number: Int32) {
    signal(number, SIG_IGN)
  }

  /// Writes `number` as one byte to `writer` (a `WakeSignal`'s writing end); async-signal-safe:
  /// one `write(2)`, nothing allocated, no lock.
  package static func post(_ number: Int32, to writer: Int32) {
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(writer, &byte, 1)
  }
}
