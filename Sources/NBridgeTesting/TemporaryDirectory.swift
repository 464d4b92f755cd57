import Foundation
import NBridgeSystem

/// A fresh folder under the system temp dir, removed when released.
public final class TemporaryDirectory: @unchecked Sendable {
  /// Its absolute path.
  public let path: String

  /// Creates the folder.
  public init(prefix: String = "nbridge-test") throws {
    path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(atPath: path) }

  /// A path inside the folder.
  public func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

  /// Writes `text` to `name` inside the folder and returns its path.
  @discardableResult
  public func write(_ name: String, _ text: String) throws -> String {
    let target = file(name)
    try FileManager.default.createDirectory(
      atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    // Written through a close-on-exec descriptor (Foundation's is not): a process another test
    // starts meanwhile must not keep it open, or a script written here could not be run (ETXTBSY).
    try POSIX.writeAtomically(target, Array(text.utf8), mode: 0o644, syncs: false)
    return target
  }
}
