/// How much a log record matters: `nbridge.log.debug|info|warn|error`, the manifest's
/// `log.level` and `--log-level` (the minimum a run prints and forwards), the viewer's `--level`.
public enum LogLevel: Int, Sendable, Hashable, Comparable, CaseIterable, Codable {
  /// Detail for the developer while debugging.
  case debug
  /// What the app does, in the normal course.
  case info
  /// Something odd the app got over (the seed's `warning`).
  case warn
  /// Something failed outright.
  case error

  /// Reads `debug`, `info`, `warn` (or the seed's `warning`) and `error`, in any case.
  public init?(name: String) {
    switch name.lowercased() {
    case "debug": self = .debug
    case "info": self = .info
    case "warn", "warning": self = .warn
    case "error": self = .error
    default: return nil
    }
  }

  /// The lowercase name records carry on the wire (`"level":"warn"`).
  public var name: String {
    switch self {
    case .debug: "debug"
    case .info: "info"
    case .warn: "warn"
    case .error: "error"
    }
  }

  /// The tag printed locally: `[INFO]`.
  public var tag: String { "[" + name.uppercased() + "]" }

  /// The names a user may write, for error messages.
  public static let accepted = "debug, info, warn (or warning), error"

  public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

  /// Decodes the level's name.
  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    guard let level = LogLevel(name: name) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "must be one of \(LogLevel.accepted)"))
    }
    self = level
  }

  /// Encodes the level's name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(name)
  }
}
