import Glibc
import NBridgeSystem

/// The shared libraries an ELF executable names (`DT_NEEDED`), read from its program headers
/// as the dynamic loader reads them: 64-bit little-endian only (x86-64, AArch64).
enum ELFNeeded {
  /// The sonames `path` needs, in its order; nil when it is no 64-bit little-endian ELF file
  /// with a dynamic section.
  static func sonames(of path: String) -> [String]? {
    guard let fd = try? POSIX.open(path, O_RDONLY) else { return nil }
    defer { close(fd) }
    func read(_ offset: UInt64, _ count: Int) -> [UInt8]? {
      var bytes = [UInt8](repeating: 0, count: count)
      let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
      return n == count ? bytes : nil
    }
    func word(_ bytes: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
      (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
    guard let header = read(0, 64), header[0..<4] == [0x7f, 0x45, 0x4c, 0x46], header[4] == 2, header[5] == 1 else {
      return nil
    }
    let headersAt = word(header, 0x20, 8)
    let entrySize = Int(word(header, 0x36, 2))
    let count = Int(word(header, 0x38, 2))
    guard entrySize >= 56, count > 0, let table = read(headersAt, entrySize * count) else { return nil }
    var loads: [(address: UInt64, offset: UInt64, size: UInt64)] = []
    var dynamic: (offset: UInt64, size: UInt64)?
    for index in 0..<count {
      let at = index * entrySize
      let type = word(table, at, 4)
      if type == 1 { loads.append((word(table, at + 16, 8), word(table, at + 8, 8), word(table, at + 32, 8))) }
      if type == 2 { dynamic = (word(table, at + 8, 8), word(table, at + 32, 8)) }
    }
    guard let dynamic, dynamic.size < 1 << 20, let entries = read(dynamic.offset, Int(dynamic.size)) else { return nil }
    var needed: [UInt64] = []
    var strings: UInt64?
    for at in stride(from: 0, to: entries.count - 15, by: 16) {
      let tag = word(entries, at, 8)
      if tag == 0 { break }
      if tag == 1 { needed.append(word(entries, at + 8, 8)) }
      if tag == 5 { strings = word(entries, at + 8, 8) }
    }
    guard let strings,
      let load = loads.first(where: { strings >= $0.address && strings < $0.address + $0.size })
    else { return needed.isEmpty ? [] : nil }
    let base = strings - load.address + load.offset
    return needed.compactMap { offset -> String? in
      guard let bytes = read(base + offset, 256), let end = bytes.firstIndex(of: 0) else { return nil }
      return String(decoding: bytes[..<end], as: UTF8.self)
    }
  }
}
