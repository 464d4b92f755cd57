/// The wire format between a run's log sender (`--log-to`) and `nbridge logs`, defined once for
/// both: one flat JSON object a line, over TCP.
///
/// - The sender opens with a hello: `{"hello":1,"app":"…","pid":N,"run":"…"}`.
/// - A record: `{"seq":N,"t":ms,"level":"info","msg":"…","file":"…","line":N,"col":N,"fn":"…",
///   "src":"log"}`; `src` is `console` for what the run printed, which has no caller.
/// - Records dropped for room: `{"seq":N,"dropped":N,"from":N,"to":N,"t":ms}`, numbered as the
///   last record it stands for.
/// - The viewer answers `{"ack":N}`: it has every record up to `seq` N; the sender lets go of them.
///
/// `LogRecord`, `LogQueue` and `LogSender` write it; `LogLine` reads it.
package enum LogWire {
  /// The hello's mark, the app's id, the sender's process id and a random id of the run.
  static let hello: StaticString = "hello", app: StaticString = "app", pid: StaticString = "pid"
  static let run: StaticString = "run"
  /// A line's number, from 1 without gaps, and its wall-clock time in ms since the epoch.
  static let seq: StaticString = "seq", time: StaticString = "t"
  /// A record's level (`debug` to `error`), message, and caller: file, line, column, function.
  static let level: StaticString = "level", message: StaticString = "msg", file: StaticString = "file"
  static let line: StaticString = "line", column: StaticString = "col", function: StaticString = "fn"
  /// Where a record came from: `log` (`nbridge.log`) or `console` (what the run printed).
  static let source: StaticString = "src", fromLog: StaticString = "log", fromConsole: StaticString = "console"
  /// A dropped marker's count and the first and last number it stands for.
  static let dropped: StaticString = "dropped", from: StaticString = "from", to: StaticString = "to"
  /// The viewer's acknowledgement.
  static let ack: StaticString = "ack"
  /// What `nbridge logs --json` adds itself (a client's line naming it is refused).
  static let peerUid: StaticString = "peerUid"

  /// `{"name":`: a line's first field up to its value.
  static func first(_ name: StaticString) -> [UInt8] { [UInt8(ascii: "{")] + key(name) }

  /// `,"name":`: a later field up to its value.
  static func field(_ name: StaticString) -> [UInt8] { [UInt8(ascii: ",")] + key(name) }

  /// `"text"`.
  static func quoted(_ text: StaticString) -> [UInt8] { [quote] + bytes(text) + [quote] }

  /// The viewer's line acknowledging every record up to `seq`.
  package static func acknowledgement(_ seq: UInt64) -> [UInt8] {
    first(ack) + Array(String(seq).utf8) + Array("}\n".utf8)
  }

  /// `{"seq":`, how a record's or marker's line begins.
  package static let seqHead = first(seq)

  static let quote = UInt8(ascii: "\"")

  private static func key(_ name: StaticString) -> [UInt8] { [quote] + bytes(name) + [quote, UInt8(ascii: ":")] }

  static func bytes(_ text: StaticString) -> [UInt8] {
    text.withUTF8Buffer { Array($0) }
  }
}
