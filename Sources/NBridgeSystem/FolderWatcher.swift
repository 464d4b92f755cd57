import Glibc

/// The files that change under a folder and its subfolders (inotify, one watch per folder, new
/// folders watched as they appear), read without blocking: `descriptor` goes on a loop's poll and
/// `changes()` drains what it holds. Hidden entries and `node_modules` are left out.
package final class FolderWatcher {
  /// The inotify descriptor: readable when changes wait.
  package let descriptor: Int32
  private var folders: [Int32: String] = [:]
  private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE)

  /// Watches `root` and every folder under it; nil when inotify cannot be set up.
  package init?(root: String) {
    descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard descriptor >= 0 else { return nil }
    add(root)
  }

  deinit { close(descriptor) }

  private func add(_ folder: String) {
    let wd = inotify_add_watch(descriptor, folder, FolderWatcher.mask)
    guard wd >= 0 else { return }
    folders[wd] = folder
    for name in Directory.names(folder) ?? [] where !FolderWatcher.ignored(name) {
      var info = stat()
      let path = folder + "/" + name
      if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { add(path) }
    }
  }

  static func ignored(_ name: String) -> Bool { name.hasPrefix(".") || name == "node_modules" }

  /// The paths changed since the last call (created, written and closed, moved, deleted), in
  /// order, each once; a folder created meanwhile is watched from now on.
  package func changes() -> [String] {
    var changed: [String] = []
    var buffer = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      var offset = 0
      while offset + MemoryLayout<inotify_event>.size <= count {
        let (wd, mask, length) = buffer.withUnsafeBytes { raw in
          let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
          return (event.wd, event.mask, Int(event.len))
        }
        let nameStart = offset + MemoryLayout<inotify_event>.size
        let nameBytes = buffer[nameStart..<min(nameStart + length, count)].prefix { $0 != 0 }
        let name = String(decoding: nameBytes, as: UTF8.self)
        offset = nameStart + length
        guard let folder = folders[wd], !name.isEmpty, !FolderWatcher.ignored(name) else { continue }
        let path = folder + "/" + name
        if mask & UInt32(IN_ISDIR) != 0 {
          if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { add(path) }
          continue
        }
        if !changed.contains(path) { changed.append(path) }
      }
    }
    return changed
  }
}
