import Glibc

/// Cryptographically strong random bytes for `crypto.getRandomValues`, from the C library's
/// `arc4random_buf` (getrandom(2) underneath; glibc stops the process if the kernel cannot answer).
enum RandomBytes {
  /// Fills `buffer` from the kernel's CSPRNG (blocking only before it is first seeded).
  static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress else { return }
    arc4random_buf(base, buffer.count)
  }
}
