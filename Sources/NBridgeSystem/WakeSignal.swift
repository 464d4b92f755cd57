import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Wakes a thread that waits in `poll(2)`: a nonblocking, close-on-exec pipe (a socket pair)
/// whose reading end the thread polls, written by `wake()` from any thread. Wakes coalesce: between two
/// `drain()`s only the first `wake()` writes a byte, so a busy producer costs one `write(2)`
/// per turn of the waiting thread, and the pipe never fills.
///
/// A signal handler may write to it too (`Signals.post`): the byte it writes, the signal's
/// number, reaches `drain`'s closure, in order.
package final class WakeSignal: Sendable {
  /// The reading end: poll it for `POLLIN`, then call `drain()`.
  package let descriptor: Int32
  /// The writing end; a signal handler writes one byte here, with `write(2)` and nothing else.
  package let writer: Int32
  /// Set by the `wake()` that wrote a byte the reader has not drained yet.
  private let pending = Atomic<Bool>(false)

  /// A new pipe: a Unix socket pair made nonblocking and close-on-exec in the same call
  /// (`socketpair(2)` with `SOCK_NONBLOCK | SOCK_CLOEXEC`; Glibc's module has no `pipe2`), so a
  /// process another thread spawns meanwhile cannot inherit it.
  package init() throws(SystemError) {
    var ends: [Int32] = [-1, -1]
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
    _ = try POSIX.retrying("create a wake pipe") { socketpair(AF_UNIX, type, 0, &ends) }
    descriptor = ends[0]
    writer = ends[1]
  }

  deinit {
    close(descriptor)
    close(writer)
  }

  /// Makes `descriptor` readable, unless a wake is already pending; safe from any thread.
  package func wake() {
    guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
    var byte: UInt8 = 0
    // A full pipe (EAGAIN) is readable already: nothing is lost.
    while Glibc.write(writer, &byte, 1) < 0 && errno == EINTR {}
  }

  /// Empties the pipe, handing every byte a signal handler wrote to `each`; `wake()`'s own
  /// bytes (0) are skipped. Call it when `poll` finds `descriptor` readable, then look at what
  /// the wakes stand for: a `wake()` that comes after `drain` returns writes again.
  package func drain(_ each: (UInt8) -> Void = { _ in }) {
    var buffer: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    while true {
      let count = withUnsafeMutableBytes(of: &buffer) { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      withUnsafeBytes(of: buffer) { bytes in
        for byte in bytes.prefix(count) where byte != 0 { each(byte) }
      }
      if count < MemoryLayout.size(ofValue: buffer) { break }
    }
    // After the read: a wake() between the read and here finds `pending` set and writes nothing,
    // but the caller looks at its work after `drain` returns and sees what that wake stood for.
    pending.store(false, ordering: .releasing)
  }

  /// Waits at most `milliseconds` (-1: without limit) for `descriptor` to become readable;
  /// whether it did. Does not drain.
  @discardableResult
  package func wait(milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 && errno == EINTR { continue }
      return ready > 0
    }
  }
}
