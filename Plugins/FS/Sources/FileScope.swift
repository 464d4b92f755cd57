import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// Where `fs` may reach: the app's own folders, the manifest's `fs.scope`, and the user's picks.
///
/// A path is resolved before it is checked: the folder part opened (the system follows `..` and
/// links anywhere in it) and its canonical path read back from `/proc/self/fd` (the folder the
/// descriptor holds, whatever was renamed since), a link in the last place
/// followed by hand (at most 40). The canonical result is checked against the canonical roots,
/// and the operation then works on the open folder with links not followed, so a link swapped
/// in between the check and the call is refused instead of followed out of the scope.
@BridgeActor
final class FileScope {
  /// The app's folders and the variables' values.
  let folders: AppFolders
  /// The roots as configured (variables expanded): the app's folders, then the manifest's entries.
  let roots: [String]
  /// The user's picks.
  let grants: FileGrants
  private var canonicalRoots: [String] = []

  /// The scope of an app with `folders`, the manifest's `entries` and the picks in `grants`.
  init(folders: AppFolders, entries: [String], grants: FileGrants) {
    self.folders = folders
    self.grants = grants
    roots = [folders.data, folders.cache, folders.config] + entries.map(folders.expand)
    canonicalRoots = Self.canonical(roots)
  }

  /// `path`, resolved and checked: `permission_denied` naming it when it is outside the scope,
  /// `invalid_parameter` naming `field` when it is not an absolute path, `not_found` when its
  /// folder is missing. `follow`: a link in the last place is followed (the target is checked).
  func resolve(_ path: String, field: String, follow: Bool = true) throws(BridgeError) -> ScopedPath {
    try PathText.check(path, field: field)
    var current = path
    for _ in 0..<40 {
      let (folderPath, name) = PathText.split(current)
      // The folder is opened as given (links and `..` followed by the system) and its canonical
      // path read back from the descriptor: what `realpath` would say, without its walk.
      var fd = Glibc.open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
      if fd < 0 && errno == EACCES { fd = Glibc.open(folderPath, PathText.pathOnly | O_DIRECTORY | O_CLOEXEC) }
      guard fd >= 0, let pinned = PathText.descriptorPath(fd) ?? PathText.realpath(folderPath) else {
        let code = errno
        if fd >= 0 { close(fd) }
        // Outside comes first: a missing folder outside says nothing about what is there.
        if let candidate = PathText.lexicalCandidate(current), !contains(candidate) { throw FileError.outside(path) }
        throw FileError.from(code, "find the folder of", path: path, field: field)
      }
      if follow, name != ".", let target = PathText.linkTarget(fd, name) {
        close(fd)
        current = target.hasPrefix("/") ? target : PathText.join(pinned, target)
        continue
      }
      let scoped = ScopedPath(
        folder: fd, name: name, path: name == "." ? pinned : PathText.join(pinned, name), given: path, field: field)
      guard contains(scoped.path) else { throw FileError.outside(path) }
      return scoped
    }
    throw FileError.from(ELOOP, "follow", path: path, field: field)
  }

  /// Whether `path` names something (a link is followed); `false` when its folder is missing too,
  /// but `permission_denied` when it is outside the scope.
  func exists(_ path: String, field: String) throws(BridgeError) -> Bool {
    let scoped: ScopedPath
    do {
      scoped = try resolve(path, field: field)
    } catch {
      if error.code == .notFound { return false }
      throw error
    }
    return try scoped.status() != nil
  }

  /// Whether the canonical `path` is inside a root or a pick; roots are resolved again on a miss
  /// (a folder made since, a link changed), picks read again when their file changed.
  func contains(_ path: String) -> Bool {
    if canonicalRoots.contains(where: { PathText.covers($0, path) }) { return true }
    canonicalRoots = Self.canonical(roots)
    if canonicalRoots.contains(where: { PathText.covers($0, path) }) { return true }
    return grants.covers(path)
  }

  /// The roots that exist, canonical.
  private static func canonical(_ roots: [String]) -> [String] { roots.compactMap { PathText.realpath($0) } }
}
