import Glibc
import NBridgePlugin

/// One record's JSON line after its `{"seq":N` (the queue numbers it): `,"t":…,"level":"info",
/// "msg":"…","file":"…","line":12,"col":5,"fn":"…","src":"log"}` and a newline. Encoded on the
/// JS thread into a buffer it keeps, the caller's part once per call site, so the sender only
/// writes bytes.
enum LogRecord {
  /// An `nbridge.log` record: the message is JavaScript's UTF-16, `site` the caller's part
  /// (`LogRecord.site(_:)`).
  static func encode(
    level: LogLevel, message: UnsafeBufferPointer<UInt16>, site: [UInt8], into out: inout [UInt8]
  ) {
    head(level, into: &out)
    JSONEscaping.append(utf16: message, to: &out)
    out += site
  }

  /// A record of what the run printed (`console`, errors): no caller, `src` is `console`.
  static func encode(level: LogLevel, output text: Substring, into out: inout [UInt8]) {
    head(level, into: &out)
    JSONEscaping.append(utf8: text, to: &out)
    out += consoleSite
  }

  /// The line's end from the message's closing quote: `","file":"…","line":12,"col":5,"fn":"…",
  /// "src":"log"}` and a newline; zeros and empty strings when there is no caller.
  static func site(_ caller: CallerFrame?) -> [UInt8] {
    var out: [UInt8] = []
    out += fileOpen
    JSONEscaping.append(utf8: Substring(caller?.file ?? ""), to: &out)
    out += lineOpen
    JSONEscaping.appendDecimal(Int64(caller?.line ?? 0), to: &out)
    out += columnOpen
    JSONEscaping.appendDecimal(Int64(caller?.column ?? 0), to: &out)
    out += functionOpen
    (caller?.function ?? []).withUnsafeBufferPointer { JSONEscaping.append(utf16: $0, to: &out) }
    out += logEnd
    return out
  }

  // The pieces of a record's line (`LogWire`): `","file":"`, `","line":`, `,"col":`, `,"fn":"`,
  // and `","src":"log"}` with its newline.
  private static let fileOpen = [LogWire.quote] + LogWire.field(LogWire.file) + [LogWire.quote]
  private static let lineOpen = [LogWire.quote] + LogWire.field(LogWire.line)
  private static let columnOpen = LogWire.field(LogWire.column)
  private static let functionOpen = LogWire.field(LogWire.function) + [LogWire.quote]
  private static let logEnd = [LogWire.quote] + end(LogWire.fromLog)

  /// `,"src":"log"}` and a newline (or `console`).
  private static func end(_ source: StaticString) -> [UInt8] {
    LogWire.field(LogWire.source) + LogWire.quoted(source) + Array("}\n".utf8)
  }

  /// A `console` record's end from the message's closing quote: no caller.
  private static let consoleSite =
    fileOpen + [LogWire.quote] + LogWire.field(LogWire.line) + [UInt8(ascii: "0")] + LogWire.field(LogWire.column)
    + [UInt8(ascii: "0")] + functionOpen + [LogWire.quote] + end(LogWire.fromConsole)

  private static let time = LogWire.field(LogWire.time)
  /// `,"level":"info","msg":"`, by level.
  private static let levels = LogLevel.allCases.map { level in
    LogWire.field(LogWire.level) + [LogWire.quote] + Array(level.name.utf8) + [LogWire.quote]
      + LogWire.field(LogWire.message) + [LogWire.quote]
  }

  private static func head(_ level: LogLevel, into out: inout [UInt8]) {
    out += time
    JSONEscaping.appendDecimal(now(), to: &out)
    out += levels[level.rawValue]
  }

  /// Wall-clock milliseconds since the epoch.
  static func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }
}
