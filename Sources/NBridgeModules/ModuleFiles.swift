import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// What the module loader, `require()` and `load()` may read: files in the app's folder (the
/// entry's folder, where its manifest lives: the rule `fetch` applies to `file:` URLs, shared
/// through `PageFolder.lookUp(path:alias:)`), and the files and folders the manifest's import map
/// names (an address ending in `/` names a folder, any other one file). A symbolic link that
/// leads out of these places is outside. Only regular files are read, at most `sizeLimit` bytes.
struct ModuleFiles {
  /// The largest file the loader reads (64 MiB): a module's source, a JSON module, a required file.
  static let sizeLimit = 64 << 20

  /// A place the import map names.
  struct Place {
    /// Its absolute path as written (a folder's ends with `/`).
    var lexical: String
    /// Its real path (no trailing `/`), nil when it does not exist.
    var real: String?
    var isFolder: Bool
  }

  /// The app's folder, and its path as the entry's path spells it.
  let folder: PageFolder?
  let alias: String
  /// What the import map names.
  let mapped: [Place]

  /// The rule for an entry in the folder `alias` (`folder` resolved) whose manifest is `manifest`.
  init(folder: PageFolder?, alias: String, manifest: AppManifest) {
    self.folder = folder
    self.alias = alias
    var addresses = Array((manifest.imports ?? [:]).values)
    for entries in (manifest.scopes ?? [:]).values { addresses += entries.values }
    var mapped: [Place] = []
    for address in Set(addresses).sorted() {
      guard let path = ModuleFiles.path(ofAddress: address, base: alias) else { continue }
      let isFolder = path.hasSuffix("/")
      mapped.append(Place(lexical: path, real: realPath(path), isFolder: isFolder))
    }
    self.mapped = mapped
  }

  /// What the absolute, normalized `path` names under this rule.
  func lookUp(_ path: String) -> PageFolder.Lookup {
    let inFolder = folder?.lookUp(path: path, alias: alias) ?? .outside
    guard inFolder == .outside, !mapped.isEmpty, !path.split(separator: "/").contains("..") else { return inFolder }
    if let real = realPath(path) {
      for place in mapped {
        guard let root = place.real else { continue }
        if place.isFolder ? real.hasPrefix(root + "/") : real == root { return PageFolder.kind(ofReal: real) }
      }
      return .outside
    }
    for place in mapped where place.isFolder ? path.hasPrefix(place.lexical) : path == place.lexical {
      return .missing
    }
    return .outside
  }

  /// The absolute path an import map address names (`./`, `../`, `/` or `file:`, relative to
  /// the folder `base`), `..` and `.` resolved; nil for a bare specifier.
  static func path(ofAddress address: String, base: String) -> String? {
    var text = Substring(address)
    if text.hasPrefix("file:") {
      text = text.dropFirst(5)
      if text.hasPrefix("//") { text = text.dropFirst(2) }
    } else if text.hasPrefix("./") || text.hasPrefix("../") {
      text = Substring(base + "/" + text)
    } else if !text.hasPrefix("/") {
      return nil
    }
    if let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<end] }
    let decoded = PercentDecoding.decoded(text)
    var parts: [Substring] = []
    for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." {
        _ = parts.popLast()
        continue
      }
      parts.append(part)
    }
    let folder = decoded.hasSuffix("/") || decoded.hasSuffix("/.") || decoded.hasSuffix("/..")
    return "/" + parts.joined(separator: "/") + (folder && !parts.isEmpty ? "/" : "")
  }
}

extension ModuleLoader {
  /// The run's `ModuleFiles`, made on first use.
  func files(_ host: ExtensionHost) -> ModuleFiles {
    if let fileRule { return fileRule }
    let place = host.readableFolder
    let alias = place?.lexical ?? host.entryDirectory
    let rule = ModuleFiles(folder: place?.folder ?? PageFolder(alias), alias: alias, manifest: host.configuration.manifest)
    fileRule = rule
    return rule
  }

  /// Where the loader may read `path` (absolute, normalized): its real path; nil when there is
  /// no such file (or it is a folder). Throws an `Error` whose `code` says why it may not:
  /// `outside_app_folder`, `not_regular_file`.
  func loadablePath(_ path: String, _ host: ExtensionHost) throws(ThrownValue) -> String? {
    let rule = files(host)
    switch rule.lookUp(path) {
    case .file(let real): return real
    case .missing: return nil
    case .outside:
      let folder = rule.folder?.root ?? rule.alias
      throw loadError(
        "Cannot load \(path): it lies outside the app's folder (\(folder)) and the manifest's import map does not name it",
        code: "outside_app_folder", host)
    case .notRegular:
      throw loadError("Cannot load \(path): it is not a regular file", code: "not_regular_file", host)
    }
  }

  /// The bytes of the file at `path` if the loader may read it (`loadablePath`); nil when there
  /// is none. Throws a coded `Error` (never holding the file's content) otherwise, or when it
  /// is larger than `ModuleFiles.sizeLimit` (`file_too_large`) or cannot be read.
  func readLoadableFile(_ path: String, _ host: ExtensionHost) throws(ThrownValue) -> [UInt8]? {
    guard let real = try loadablePath(path, host) else { return nil }
    return try readLoadableFile(path, real: real, host)
  }

  /// The bytes of the file `loadablePath(path)` found at `real`, as `readLoadableFile(_:_:)`.
  func readLoadableFile(_ path: String, real: String, _ host: ExtensionHost) throws(ThrownValue) -> [UInt8]? {
    do throws(POSIX.RegularFileFailure) {
      return try POSIX.readRegularFile(real, limit: ModuleFiles.sizeLimit)
    } catch {
      switch error {
      case .notRegular:
        throw loadError("Cannot load \(path): it is not a regular file", code: "not_regular_file", host)
      case .tooLarge(let size):
        throw loadError(
          "Cannot load \(path): it holds \(size) bytes, more than the loader's limit of \(ModuleFiles.sizeLimit) (64 MiB)",
          code: "file_too_large", host)
      case .system(let failure):
        if failure.code == ENOENT || failure.code == ENOTDIR { return nil }
        throw loadError(
          "Cannot load \(path): \(failure.reason)",
          code: failure.code == EACCES || failure.code == EPERM ? "permission_denied" : "unavailable", host)
      }
    }
  }

  /// `native.readFile(path)`: the text of a file the module loader and `require()` may read
  /// (types erased from TypeScript); undefined when there is none; throws an `Error` with a `code` otherwise.
  func readFile(_ args: ExtensionArguments, _ host: ExtensionHost) throws(ThrownValue) -> ScriptValue? {
    let path = args.string(0) ?? ""
    guard let bytes = try readLoadableFile(path, host) else { return host.undefined }
    return host.string(try runnableSource(String(decoding: bytes, as: UTF8.self), path: path, host))
  }

  /// A JS `Error` with `message` and `code`, to throw from the loader's native functions.
  func loadError(_ message: String, code: String, _ host: ExtensionHost) -> ThrownValue {
    ThrownValue(value: host.error(message, code: code))
  }
}

extension ExtensionHost {
  /// The entry's folder: where the manifest (and its import map) lives.
  var entryDirectory: String { entryPath.isEmpty ? "/" : dirOf(entryPath) }
}
