import Glibc
import NBridgeModuleSyntax
import NBridgePlugin
import NBridgeRuntime
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
/// modification time is still seen), the script and the record in UTF-16. A module whose text
/// the runtime gave (the entry, read before it was known to be a module) is kept with that
/// text and matched by it instead of by a stamp. Last comes the entry's linked graph as the
/// loader recorded it (`GraphPlan`). A file that does not parse is ignored; writing is a
/// temporary file renamed over the old one (no `fsync`: a lost cache only costs a rewrite).
/// The folder keeps the 256 files written last.
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

    /// The stamp of a module matched by its text, not by a file.
    static let byText = Stamp(device: 0, inode: 0, size: 0, times: [0, 0, 0, 0])

    init(device: UInt64, inode: UInt64, size: Int64, times: [Int64]) {
      self.device = device
      self.inode = inode
      self.size = size
      (modified, modifiedNanoseconds, changed, changedNanoseconds) = (times[0], times[1], times[2], times[3])
    }
  }

  /// A compiled module: its rewritten script (the generator form), its record as JSON, the
  /// script's head width and whether it awaits at top level (what its plain form needs), the
  /// head of its program form when it can run as one, and whether it holds module syntax (a
  /// `.js` file without any is CommonJS when detected).
  struct Entry {
    var stamp: Stamp
    /// The text it was compiled from, for a module whose text the runtime gave (nil: the file's).
    var source: [UInt16]?
    var script: [UInt16]
    var record: [UInt16]
    var headWidth: Int
    var hasTopLevelAwait: Bool
    var programHead: [UInt16]?
    var hasModuleSyntax: Bool

    /// The script as a plain function, when the module can run as one.
    var plainScript: [UInt16]? {
      ModuleRecordInfo.plainScript(script, headWidth: headWidth, hasTopLevelAwait: hasTopLevelAwait)
    }
    /// The script as a program, when the module can run as one (`ModuleRecordInfo.runsAsProgram`).
    var programScript: [UInt16]? {
      programHead.flatMap { ModuleRecordInfo.programScript(script, headWidth: headWidth, head: $0) }
    }
  }

  /// The entry's module graph as the loader linked it: its modules in load order (each with
  /// the form it was compiled in: a generator for a module in a cycle) and the loader's own
  /// description of the links (`text`, JSON it reads back). Valid while every module in it is,
  /// under the same import map and module type (`key`).
  struct GraphPlan {
    var key: String
    var text: [UInt16]
    var modules: [(path: String, generator: Bool)]
  }

  /// The cache file.
  let file: String
  /// The entry path the file is for.
  let entry: String
  /// The graph recorded last (nil until a run records one).
  private(set) var plan: GraphPlan?
  /// The recorded graph, if it was recorded under this run's key and every module in it is
  /// unchanged when the file was read (its modules are then looked up already).
  private(set) var validPlan: GraphPlan?
  /// What the file held, by path.
  private var stored: [String: Entry] = [:]
  /// What this run used, by path: valid stored entries and new ones.
  private var used: [String: Entry] = [:]
  /// Whether this run compiled a module the file did not hold (the file is rewritten at the end).
  private(set) var changed = false

  private static let magic: [UInt8] = Array("nbridge module cache 4\n".utf8)

  /// The cache of the graph entered at `entry`, in `directory`, read now; its recorded graph
  /// is checked against `graphKey` (the manifest's module type and import map) and the stamps
  /// of its modules, the entry's against `entrySource` when the runtime read it.
  init(entry: String, directory: String, graphKey: String, entrySource: [UInt16]?) {
    self.entry = entry
    file = directory + "/" + ModuleCache.hashName(entry)
    if let parsed = (try? POSIX.readFile(file)).flatMap(ModuleCache.parse) {
      (stored, plan) = parsed
    }
    validPlan = validated(key: graphKey, source: entrySource)
  }

  /// The entry for the module at `path` if the file still has the stamp it was compiled under
  /// or, when `source` is given, if it was compiled from that text.
  mutating func lookup(_ path: String, source: [UInt16]? = nil) -> Entry? {
    if let entry = used[path] { return entry.source == source ? entry : nil }
    guard let entry = stored[path], entry.source == source else { return nil }
    if source == nil && Stamp(path: path) != entry.stamp { return nil }
    used[path] = entry
    return entry
  }

  /// What this run has used of the module at `path` (looked up or compiled).
  func usedEntry(_ path: String) -> Entry? { used[path] }

  /// Records what `path` compiled to: from its file, whose `stamp` was taken before the read,
  /// or from the `source` the runtime gave.
  mutating func store(_ path: String, stamp: Stamp, source: [UInt16]?, info: ModuleRecordInfo, hasModuleSyntax: Bool) {
    used[path] = Entry(
      stamp: stamp, source: source, script: info.script, record: info.json, headWidth: info.headWidth,
      hasTopLevelAwait: info.hasTopLevelAwait, programHead: info.runsAsProgram ? Array(info.programHead.utf16) : nil,
      hasModuleSyntax: hasModuleSyntax)
    changed = true
  }

  /// The recorded graph's modules, if `key` is the one it was recorded under and every module
  /// is still valid (the entry's text is `source`); nil otherwise.
  private mutating func validated(key: String, source: [UInt16]?) -> GraphPlan? {
    guard let plan, plan.key == key else { return nil }
    for module in plan.modules {
      guard lookup(module.path, source: module.path == entry ? source : nil) != nil else { return nil }
    }
    return plan
  }

  /// Keeps `plan` as the entry's graph (written at the end of the run).
  mutating func record(_ plan: GraphPlan) {
    self.plan = plan
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
      out.int(
        (entry.programHead != nil ? 8 : 0) | (entry.source != nil ? 4 : 0) | (entry.hasTopLevelAwait ? 2 : 0)
          | (entry.hasModuleSyntax ? 1 : 0))
      if let source = entry.source { out.units(source) }
      if let head = entry.programHead { out.units(head) }
      out.units(entry.script)
      out.units(entry.record)
    }
    // The plan only names modules this file holds.
    if let plan, plan.modules.allSatisfy({ used[$0.path] != nil }) {
      out.int(1)
      out.utf8(plan.key)
      out.units(plan.text)
      out.int(Int64(plan.modules.count))
      for module in plan.modules {
        out.utf8(module.path)
        out.int(module.generator ? 1 : 0)
      }
    } else {
      out.int(0)
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
    guard let names = Directory.names(folder) else { return }
    var files: [(name: String, written: Int64)] = []
    for name in names {
      var info = stat()
      guard name.utf8.count == 16, stat(folder + "/" + name, &info) == 0 else { continue }
      files.append((name, Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)))
    }
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

  /// The entries and the plan of a cache file's `bytes`; nil when they are not one this binary wrote.
  static func parse(_ bytes: [UInt8]) -> (entries: [String: Entry], plan: GraphPlan?)? {
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
      guard let headWidth = reader.int(), let flags = reader.int() else { return nil }
      var source: [UInt16]?
      if flags & 4 != 0 {
        guard let text = reader.units() else { return nil }
        source = text
      }
      var programHead: [UInt16]?
      if flags & 8 != 0 {
        guard let head = reader.units() else { return nil }
        programHead = head
      }
      guard let script = reader.units(), let record = reader.units() else { return nil }
      let stamp = Stamp(device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), size: size, times: times)
      entries[path] = Entry(
        stamp: stamp, source: source, script: script, record: record, headWidth: Int(headWidth),
        hasTopLevelAwait: flags & 2 != 0, programHead: programHead, hasModuleSyntax: flags & 1 != 0)
    }
    guard let hasPlan = reader.int() else { return nil }
    var plan: GraphPlan?
    if hasPlan == 1 {
      guard let key = reader.utf8(), let text = reader.units(), let count = reader.int(), count >= 0 else { return nil }
      var modules: [(path: String, generator: Bool)] = []
      for _ in 0..<count {
        guard let path = reader.utf8(), let generator = reader.int(), entries[path] != nil else { return nil }
        modules.append((path, generator == 1))
      }
      plan = GraphPlan(key: key, text: text, modules: modules)
    }
    return reader.offset == bytes.count ? (entries, plan) : nil
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
