import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The memory of large `Bytes` made in place, kept when freed for the next ones of about its
/// size: a file read again and again lands in the pages of the last reads, which the kernel
/// need not fault in and zero again (a third of a 1 MiB `fs.readFile` otherwise). Blocks of
/// `minimumSize` bytes or more, `maxTotal` bytes at most in all; the rest is freed.
enum BlockPool {
  /// Smaller blocks go straight back to malloc, which reuses them well.
  static let minimumSize = 64 << 10
  /// What the pool keeps at most: 16 MiB.
  static let maxTotal = 16 << 20

  /// A block no one else holds: handed between threads whole.
  private struct Block: @unchecked Sendable {
    var base: UnsafeMutableRawPointer
    var size: Int
  }

  private struct Kept: ~Copyable {
    var blocks: [Block] = []
    var total = 0
  }

  private static let kept = Mutex(Kept())

  /// A block of at least `size` bytes (malloc'd), and its real size: a kept one when one fits
  /// (at most twice the size asked for), the one given back last first (the likeliest to be in
  /// the processor's cache still, which the next read's copy then writes at cache speed), else a new one.
  static func take(_ size: Int) -> (base: UnsafeMutableRawPointer, size: Int) {
    let size = max(size, 1)
    if size >= minimumSize {
      let reused: Block? = kept.withLock { kept in
        guard let last = kept.blocks.lastIndex(where: { $0.size >= size && $0.size <= 2 * size }) else { return nil }
        kept.total -= kept.blocks[last].size
        return kept.blocks.remove(at: last)
      }
      if let reused { return (reused.base, reused.size) }
    }
    return (malloc(size)!, size)
  }

  /// Gives back a block `take` gave: kept for the next `take` when there is room, else freed.
  static func give(_ base: UnsafeMutableRawPointer, size: Int) {
    if size >= minimumSize {
      let keptIt = kept.withLock { kept in
        guard kept.total + size <= maxTotal else { return false }
        kept.blocks.append(Block(base: base, size: size))
        kept.total += size
        return true
      }
      if keptIt { return }
    }
    free(base)
  }
}
