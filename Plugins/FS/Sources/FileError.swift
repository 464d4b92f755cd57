import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// The `BridgeError` for a failed file system call: `not_found` for a missing file,
/// `permission_denied` when the system refuses, `invalid_parameter` naming the field when the
/// path names the wrong kind of thing, `unavailable` for the rest (a full disk, an I/O error).
enum FileError {
  /// The error for `errno` `code` while doing `what` (`read`, `create`...) on `path`, given in `field`.
  static func from(_ code: Int32, _ what: String, path: String, field: String) -> BridgeError {
    let quoted = JSONValue.string(path).jsonText
    let reason = String(cString: strerror(code))
    switch code {
    case ENOENT: return .notFound("cannot \(what) \(quoted): no such file or folder")
    case EACCES, EPERM, EROFS:
      return BridgeError(.permissionDenied, "cannot \(what) \(quoted): the system refused (\(reason))")
    case EISDIR: return .invalidParameter(field, "names a folder, not a file: \(quoted)")
    case ENOTDIR: return .invalidParameter(field, "has a file where a folder is expected: \(quoted)")
    case EEXIST: return .invalidParameter(field, "already exists: \(quoted)")
    case ENOTEMPTY: return .invalidParameter(field, "names a folder that is not empty (pass recursive: true): \(quoted)")
    case ENAMETOOLONG: return .invalidParameter(field, "has a name longer than the file system allows")
    case ELOOP: return .invalidParameter(field, "goes through too many symbolic links: \(quoted)")
    case EXDEV: return .invalidParameter(field, "is on another file system than \"from\": \(quoted)")
    case EINVAL: return .invalidParameter(field, "cannot be used here (\(reason)): \(quoted)")
    default: return .unavailable("cannot \(what) \(quoted): \(reason)")
    }
  }

  /// `permission_denied` for a path outside the scope.
  static func outside(_ path: String) -> BridgeError {
    BridgeError(
      .permissionDenied,
      "\(JSONValue.string(path).jsonText) is outside the app's file scope (its own data, cache and config folders, the manifest's fs.scope, and what the user picked)"
    )
  }
}
