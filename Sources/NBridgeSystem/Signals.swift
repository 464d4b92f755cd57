#if canImport(Glibc)
  import Glibc
#endif

/// Signals turned into bytes on a `WakeSignal` (the self-pipe trick): a handler only writes the
/// signal's number with `write(2)`, the one thing it may safely do; the thread that polls the
/// pipe acts on it. Every process of nbridge that waits for signals in a loop (a run, `nbridge
/// logs`, the fetch daemon, `run --watch`) takes them from `install(_:screen:)`'s one pipe.
package enum Signals {
  /// The process's signal pipe, made by the first `install(_:screen:)` and kept for later ones.
  nonisolated(unsafe) private static var pipe: WakeSignal?
  /// Its writing end, as the handler reads it (a plain integer: nothing to retain there).
  nonisolated(unsafe) fileprivate static var writer: Int32 = -1
  /// What decides first, in the handler, whether a signal's number is written (nil: always).
  nonisolated(unsafe) fileprivate static var screen: (@convention(c) (Int32) -> Bool)?

  /// Has each of `signals` write its number to the process's signal pipe, which the caller's
  /// loop polls and drains (`WakeSignal.drain` hands it the numbers), and returns that pipe.
  /// `screen`, when given, runs first in the handler (async-signal-safe code only: no lock, no
  /// allocation) and says whether the number is written. Throws when the pipe cannot be made
  /// (no descriptor left), and then sets nothing.
  package static func install(
    _ signals: [Int32], screen: (@convention(c) (Int32) -> Bool)? = nil
  ) throws(SystemError) -> WakeSignal {
    let signalPipe: WakeSignal
    if let made = pipe {
      signalPipe = made
    } else {
      signalPipe = try WakeSignal()
      pipe = signalPipe
      writer = signalPipe.writer
    }
    self.screen = screen
    install(signals, handler: postToPipe)
    return signalPipe
  }

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

private let postToPipe: @convention(c) (Int32) -> Void = { number in
  if let screen = Signals.screen, !screen(number) { return }
  Signals.post(number, to: Signals.writer)
}
