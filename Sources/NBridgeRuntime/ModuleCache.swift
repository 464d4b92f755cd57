import Glibc
import NBridgeModuleSyntax
import NBridgeSystem

/// What an entry's module graph compiled to last time, kept between runs (as Deno keeps its
/// `DENO_DIR`): each module's rewritten script and record, under the file's stamp. A module
/// whose file still has its stamp is neither read nor rewritten again; a changed one is, and the
/// cache file is replaced at the end of the run.
///
/// One file per entry, `<directory>/<hash of the entry path>`, read in one call. It holds the
/// identity of the nbridge binary that wrote it (another build rewrites differently and starts
/// afresh) and, per module, the path, the file's device, inode, size, modification and change
/// times (a change time cannot be set back, so an edit that keeps the size and the
/// modification time is still seen), the script and the record in UTF-16. A file that does not
/// parse is ignored; writing is a temporary file renamed over the old one (no `fsync`: a lost
/// cache only costs a rewrite). The folder keeps the 256 files written last.
struct ModuleCache {
  /// A file's identity and version.
  struct Stamp: Equatable {
    var device: UInt64, inode: UInt64, size: Int64
    var modified: Int64, modifiedNanoseconds: Int64, changed: Int64, changedNanoseconds: Int64

    /// The stamp of the file at `path`; nil when it cannot be read.
    init?(path: String) {
      var info = stat()
      guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
      device = UInt64(info.st_dev)
      inode = UInt64(info.st_ino)
      size = Int64(info.st_size)
      modified = Int64(info.st_mtim.tv_sec)
      modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
      changed = Int64(info.st_ctim.tv_sec)
      changedNanoseconds = Int64(info.st_ctim.tv_nsec)
    }

    init(device: UInt64, inode: UInt64, size: Int64, times: [Int64]) {
      self.device = device
      self.inode = inode
      self.size = size
      (modified, modifiedNanoseconds, changed, changedNanoseconds) = (times[0], times[1], times[2], times[3])
    }
  }

  /// A compiled module: its rewritten script (the generator form), its record as JSON, the
  /// script's head width and whether it awaits at top level (what its plain form needs), and
  /// whether it holds module syntax (a `.js` file without any is CommonJS when detected).
  struct Entry {
    var stamp: Stamp
    var script: [UInt16]
    var record: [UInt16]
    var headWidth: Int
    var hasTopLevelAwait: Bool
    var hasModuleSyntax: Bool

    /// The script as a plain function, when the module can run as one.
    var plainScript: [UInt16]? {
      ModuleRecordInfo.plainScript(script, headWidth: headWidth, hasTopLevelAwait: hasTopLevelAwait)
    }
  }

  /// The cache file.
  let file: String
  /// What the file held, by path.
  private var stored: [String: Entry] = [:]
  /// What this run used, by path: valid stored entries and new ones.
  private var used: [String: Entry] = [:]
  /// Whether this run compiled a module the file did not hold (the file is rewritten at the end).
  private(set) var changed = false

  private static let magic: [UInt8] = Array("nbridge module cache 1\n".utf8)

  /// The cache of the graph entered at `entry`, in `directory` (read now).
  init(entry: String, directory: String) {
    file = directory + "/" + ModuleCache.hashName(entry)
    stored = (try? POSIX.readFile(file)).flatMap(ModuleCache.parse) ?? [:]
  }

  /// The entry for the module at `path` if the file still has the stamp it was compiled under.
  mutating func lookup(_ path: String) -> Entry? {
    if let entry = used[path] { return entry }
    guard let entry = stored[path], Stamp(path: path) == entry.stamp else { return nil }
    used[path] = entry
    return entry
  }

  /// Records what `path` compiled to; `stamp` is the file's, taken before it was read.
  mutating func store(_ path: String, stamp: Stamp, info: ModuleRecordInfo, hasModuleSyntax: Bool) {
    used[path] = Entry(
      stamp: stamp, script: info.script, record: info.json, headWidth: info.headWidth,
      hasTopLevelAwait: info.hasTopLevelAwait, hasModuleSyntax: hasModuleSyntax)
    changed = true
  }

  /// Replaces the cache file with the modules this run used, if it compiled any anew.
  func save() {
    guard changed else { return }
    var out = Writer(bytes: ModuleCache.magic + ModuleCache.binaryIdentity)
    out.int(Int64(used.count))
    for (path, entry) in used.sorted(by: { $0.key < $1.key }) {
      out.utf8(path)
      out.int(Int64(bitPattern: entry.stamp.device))
      out.int(Int64(bitPattern: entry.stamp.inode))
      out.int(entry.stamp.size)
      for time in [
        entry.stamp.modified, entry.stamp.modifiedNanoseconds, entry.stamp.changed, entry.stamp.changedNanoseconds,
      ] {
        out.int(time)
      }
      out.int(Int64(entry.headWidth))
      out.int((entry.hasTopLevelAwait ? 2 : 0) | (entry.hasModuleSyntax ? 1 : 0))
      out.units(entry.script)
      out.units(entry.record)
    }
    let folder = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
    try? POSIX.makeDirectories(folder)
    try? POSIX.writeAtomically(file, out.bytes, syncs: false)
    ModuleCache.prune(folder, keeping: ModuleCache.filesKept)
  }

  /// How many entries' files the folder keeps: past that, a save removes the least recently written.
  static let filesKept = 256

  /// Removes the files of `folder` written longest ago until `count` are left (a removed
  /// entry's graph is compiled again by its next run).
  static func prune(_ folder: String, keeping count: Int) {
    guard let directory = opendir(folder) else { return }
    var files: [(name: String, written: Int64)] = []
    while let item = readdir(directory) {
      let name = withUnsafeBytes(of: item.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      var info = stat()
      guard name.utf8.count == 16, stat(folder + "/" + name, &info) == 0 else { continue }
      files.append((name, Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)))
    }
    closedir(directory)
    guard files.count > count else { return }
    for file in files.sorted(by: { $0.written < $1.written }).prefix(files.count - count) {
      unlink(folder + "/" + file.name)
    }
  }

  /// The running binary's size and modification time, as bytes: a rebuilt nbridge may rewrite
  /// modules differently, so it does not read another build's cache.
  private static let binaryIdentity: [UInt8] = {
    var writer = Writer(bytes: [])
    var info = stat()
    if stat("/proc/self/exe", &info) == 0 {
      for value in [Int64(info.st_size), Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec)] { writer.int(value) }
    }
    writer.utf8(NBridgeVersion.current)
    return writer.bytes
  }()

  /// 64-bit FNV-1a of `text`, in hex: the cache file's name for an entry path.
  static func hashName(_ text: String) -> String {
    fnv1aHex(text, offset: UInt64(0xcbf2_9ce4_8422_2325), prime: 0x100_0000_01b3)
  }

  /// The entries of a cache file's `bytes`; nil when they are not one this binary wrote.
  static func parse(_ bytes: [UInt8]) -> [String: Entry]? {
    let head = magic + binaryIdentity
    guard bytes.count >= head.count, bytes[0..<head.count].elementsEqual(head) else { return nil }
    var reader = Reader(bytes: bytes, offset: head.count)
    guard let count = reader.int(), count >= 0 else { return nil }
    var entries: [String: Entry] = [:]
    for _ in 0..<count {
      guard let path = reader.utf8(), let device = reader.int(), let inode = reader.int(), let size = reader.int()
      else { return nil }
      var times: [Int64] = []
      for _ in 0..<4 {
        guard let time = reader.int() else { return nil }
        times.append(time)
      }
      guard let headWidth = reader.int(), let flags = reader.int(), let script = reader.units(),
        let record = reader.units()
      else { return nil }
      let stamp = Stamp(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), size: size, times: times)
      entries[path] = Entry(
        stamp: stamp, script: script, record: record, headWidth: Int(headWidth), hasTopLevelAwait: flags & 2 != 0,
        hasModuleSyntax: flags & 1 != 0)
    }
    return reader.offset == bytes.count ? entries : nil
  }

  /// Little-endian integers, UTF-8 strings and UTF-16 arrays, each length first.
  private struct Writer {
    var bytes: [UInt8]

    mutating func int(_ value: Int64) {
      withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    mutating func utf8(_ text: String) {
      int(Int64(text.utf8.count))
      bytes.append(contentsOf: text.utf8)
    }
    mutating func units(_ units: [UInt16]) {
      int(Int64(units.count))
      units.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }
  }

  private struct Reader {
    let bytes: [UInt8]
    var offset: Int

    mutating func int() -> Int64? {
      guard offset + 8 <= bytes.count else { return nil }
      var value: Int64 = 0
      withUnsafeMutableBytes(of: &value) { target in
        bytes.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + 8])) }
      }
      offset += 8
      return Int64(littleEndian: value)
    }
    mutating func utf8() -> String? {
      guard let count = int(), count >= 0, offset + Int(count) <= bytes.count else { return nil }
      defer { offset += Int(count) }
      return String(decoding: bytes[offset..<offset + Int(count)], as: UTF8.self)
    }
    mutating func units() -> [UInt16]? {
      guard let count = int(), count >= 0, offset + Int(count) * 2 <= bytes.count else { return nil }
      let start = offset
      offset += Int(count) * 2
      return [UInt16](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
        bytes.withUnsafeBytes {
          UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<offset]))
        }
        initialized = Int(count)
      }
    }
  }
}
