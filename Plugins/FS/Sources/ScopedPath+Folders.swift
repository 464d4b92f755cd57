import NBridgePlugin
import NBridgeSystem

#if canImport(Glibc)
  import Glibc
#endif

extension ScopedPath {
  /// Makes the folder (`mkdirat`); `invalid_parameter` when something is there already.
  func makeFolder() throws(BridgeError) {
    guard mkdirat(folder, name, 0o777) == 0 else { throw failure(errno, "create") }
  }

  /// Removes the file, link or empty folder; with `recursive` a folder and all it holds, links
  /// removed and never followed.
  func remove(recursive: Bool) throws(BridgeError) {
    guard let info = try status() else { throw failure(ENOENT, "remove") }
    if info.st_mode & S_IFMT != S_IFDIR {
      guard unlinkat(folder, name, 0) == 0 else { throw failure(errno, "remove") }
      return
    }
    if recursive {
      let code = Self.removeContents(of: name, in: folder)
      if code != 0 { throw failure(code, "remove") }
    }
    guard unlinkat(folder, name, AT_REMOVEDIR) == 0 else { throw failure(errno, "remove") }
  }

  /// Removes everything in the folder `name` of `parent` (never through a link); 0 or an `errno`.
  private static func removeContents(of name: String, in parent: Int32) -> Int32 {
    let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { return errno }
    guard let directory = fdopendir(fd) else {
      let code = errno
      close(fd)
      return code
    }
    defer { closedir(directory) }
    let descriptor = dirfd(directory)
    var names: [String] = []
    while let entry = readdir(directory) {
      let entryName = Directory.name(of: entry)
      if entryName != "." && entryName != ".." { names.append(entryName) }
    }
    for entryName in names {
      var info = stat()
      guard fstatat(descriptor, entryName, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
        if errno == ENOENT { continue }
        return errno
      }
      if info.st_mode & S_IFMT == S_IFDIR {
        let code = removeContents(of: entryName, in: descriptor)
        if code != 0 { return code }
        if unlinkat(descriptor, entryName, AT_REMOVEDIR) != 0 && errno != ENOENT { return errno }
      } else if unlinkat(descriptor, entryName, 0) != 0 && errno != ENOENT {
        return errno
      }
    }
    return 0
  }
}

extension FileScope {
  /// Makes the folder `path` and its missing parents (`mkdir -p`): the folder it would be is
  /// checked against the scope first, then each missing folder is made below the deepest one that
  /// exists, opened without following a link. Nothing is made outside the scope.
  func makeFolders(_ path: String, field: String) throws(BridgeError) {
    try PathText.check(path, field: field)
    guard let candidate = PathText.lexicalCandidate(path) else {
      throw FileError.from(ENOENT, "create", path: path, field: field)
    }
    guard contains(candidate) else { throw FileError.outside(path) }
    // The deepest existing folder, resolved and checked as any path is, then the rest made in it.
    var parts = candidate.split(separator: "/").map(String.init)
    var missing: [String] = []
    while !parts.isEmpty, PathText.realpath("/" + parts.joined(separator: "/")) == nil {
      missing.insert(parts.removeLast(), at: 0)
    }
    let base = try resolve("/" + parts.joined(separator: "/"), field: field)
    guard let info = try base.status() else { throw base.failure(ENOENT, "create") }
    guard info.st_mode & S_IFMT == S_IFDIR else { throw base.failure(ENOTDIR, "create") }
    var fd = openat(base.folder, base.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw base.failure(errno, "create") }
    defer { close(fd) }
    for name in missing {
      if mkdirat(fd, name, 0o777) != 0 && errno != EEXIST {
        throw FileError.from(errno, "create", path: path, field: field)
      }
      let next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
      guard next >= 0 else { throw FileError.from(errno == ELOOP ? ENOTDIR : errno, "create", path: path, field: field) }
      close(fd)
      fd = next
    }
  }
}
