import CJavaScriptCore
import Glibc

/// Cryptographically strong random bytes for `crypto.getRandomValues`, from getrandom(2).
enum RandomBytes {
  /// Fills `buffer` from the kernel's CSPRNG (blocking only before it is first seeded).
  static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
    var offset = 0
    while offset < buffer.count {
      let n = getrandom(buffer.baseAddress! + offset, buffer.count - offset, 0)
      if n > 0 { offset += n } else if errno != EINTR { fatalError("getrandom failed: \(errno)") }
    }
  }
}
