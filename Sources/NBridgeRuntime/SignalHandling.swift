import Glibc
import NBridgePlugin

/// SIGINT/SIGTERM: the first stops the run cleanly at the next turn of the loop (exit 130/143,
/// plugins flushed); a second one, for a script stuck in a loop, ends the process at once.
enum SignalHandling {
  nonisolated(unsafe) static var pipeWriter: Int32 = -1
  nonisolated(unsafe) static var pipeReader: Int32 = -1
  nonisolated(unsafe) static var received: Int32 = 0

  @BridgeActor
  static func install(loop: EventLoop, runtime: Runtime) {
    if pipeReader < 0 {
      var fds: [Int32] = [0, 0]
      guard pipe(&fds) == 0 else { return }
      for fd in fds {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
      pipeReader = fds[0]
      pipeWriter = fds[1]
    }
    // A parent may start us with these blocked (threaded test runners do); a CLI must hear them.
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, SIGINT)
    sigaddset(&unblock, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    signal(SIGINT, onSignal)
    signal(SIGTERM, onSignal)
    signal(SIGPIPE, SIG_IGN)
    loop.alwaysPolled.append(
      (
        pipeReader,
        { [unowned runtime] in
          var byte: UInt8 = 0
          while read(pipeReader, &byte, 1) == 1 {}
          let sig = received
          runtime.requestExit(sig == SIGINT ? ExitStatus.interrupted : ExitStatus.terminated)
        }
      ))
  }
}

private let onSignal: @convention(c) (Int32) -> Void = { sig in
  if SignalHandling.received != 0 { _exit(128 + sig) }
  SignalHandling.received = sig
  var byte: UInt8 = UInt8(truncatingIfNeeded: sig)
  _ = write(SignalHandling.pipeWriter, &byte, 1)
}
