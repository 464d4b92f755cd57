import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// `nbridge.log` and `--log-to` as an extension of the runtime: `log.js` on the `nbridge`
/// object, its one native function, and, when forwarding, the sender thread started with the
/// run, fed what the run prints, and finished at its end.
package enum LogExtension {
  /// The extension: `nbridge.log` printing locally, and with a `destination` its records and
  /// everything else the run prints forwarded to a viewer (`nbridge logs`).
  package static func make(destination: LogDestination? = nil) -> RuntimeExtension {
    var hooks = RuntimeExtension.Hooks<LogState>()
    hooks.pageMessage = { state, host, text in state.log(pageMessage: text, host) }
    if let destination {
      hooks.start = { state, host in state.startForwarding(to: destination, host) }
      hooks.output = { state, _, text, level in state.forward(output: text, level: level) }
      hooks.end = { state, host in state.finishForwarding(host) }
    }
    return RuntimeExtension(
      name: "log", state: { _ in LogState() }, nbridgeScripts: [.init(name: "log", source: EmbeddedFiles.log_js)],
      values: { host in ["logLevel": .number(Double(minimum(host.configuration).rawValue))] },
      functions: [.init("log") { state, host, args in state.log(args, host) }], hooks: hooks)
  }

  /// The least level `nbridge.log` prints: `--log-level`, else the manifest's `log.level`, else debug.
  static func minimum(_ configuration: RuntimeConfiguration) -> LogLevel {
    configuration.logLevel ?? configuration.manifest.log?.level ?? .debug
  }
}

/// What the log extension keeps for one run: the call sites met, the buffers a call writes
/// into (kept, not remade), and the sender when forwarding.
@BridgeActor
final class LogState {
  /// Forwards log records and output to a viewer (`--log-to`).
  var sender: LogSender?
  /// The places `nbridge.log` was called from, read and encoded once each.
  var sites = LogCallSites()
  /// Buffers an `nbridge.log` call writes its local line and its record into.
  var line: [UInt8] = []
  var record: [UInt8] = []

  /// Starts the sender thread; when it cannot, the run goes on printing its records here only.
  func startForwarding(to destination: LogDestination, _ host: ExtensionHost) {
    let sender: LogSender
    do {
      sender = try LogSender(destination: destination, app: host.configuration.manifest.id)
    } catch {
      host.write(2, "nbridge: cannot forward log records to \(destination): \(error)\n")
      return
    }
    sender.start()
    self.sender = sender
  }

  /// At the end of the run: waits (at most 2 s, and only when connected) for the viewer's
  /// acknowledgements, then says on stderr how many records it never got.
  func finishForwarding(_ host: ExtensionHost) {
    guard let sender else { return }
    self.sender = nil
    let undelivered = sender.finish()
    guard undelivered > 0 else { return }
    host.write(2, "nbridge: \(undelivered) log record\(undelivered == 1 ? "" : "s") not delivered to \(sender.destination)\n")
  }

  /// `native.log(level, message, stack)`, the one crossing of an `nbridge.log` call.
  func log(_ args: ExtensionArguments, _ host: ExtensionHost) -> JSONValue? {
    let number = args.number(0)
    let level = (number > -1 && number < 4 ? LogLevel(rawValue: Int(number)) : nil) ?? .info
    _ = args.withUTF16(1) { message in
      args.withUTF16(2) { stack in log(level: level, message: message, stack: stack, host) }
    }
    return nil
  }

  /// `nbridge.log` in a window's page (page.js's `log`): the level's digit, the stack with tabs
  /// for its line breaks, a line break, the message.
  func log(pageMessage body: Substring, _ host: ExtensionHost) {
    guard let level = body.first?.wholeNumberValue.flatMap(LogLevel.init(rawValue:)) else { return }
    let newline = body.firstIndex(of: "\n") ?? body.endIndex
    let stack = body[body.index(after: body.startIndex)..<newline].utf16.map { $0 == 0x09 ? 0x0A : $0 }
    let message = Array((newline < body.endIndex ? body[body.index(after: newline)...] : "").utf16)
    message.withUnsafeBufferPointer { message in
      stack.withUnsafeBufferPointer { stack in log(level: level, message: message, stack: stack, host) }
    }
  }

  /// One `nbridge.log` call: `[INFO] index.js:12 message` on stdout (warn and error on stderr),
  /// and the record for the viewer when forwarding.
  func log(
    level: LogLevel, message units: UnsafeBufferPointer<UInt16>, stack: UnsafeBufferPointer<UInt16>,
    _ host: ExtensionHost
  ) {
    let site = sites.site(in: stack, columnShifts: host.firstLineColumnShifts)
    line.removeAll(keepingCapacity: true)
    line += logTags[level.rawValue]
    line.append(0x20)
    line += site.local
    UTF16Text.appendUTF8(units, to: &line)
    line.append(0x0A)
    let fd: Int32 = level >= .warn ? 2 : 1
    if let output = host.configuration.output {
      output(fd, String(decoding: line, as: UTF8.self))
    } else {
      try? POSIX.writeAll(fd, line, what: "log")
    }
    guard let sender else { return }
    record.removeAll(keepingCapacity: true)
    LogRecord.encode(level: level, message: units, site: site.record, into: &record)
    sender.append(record)
  }

  /// Forwards what the run printed (console, error reports) as a `console` record.
  func forward(output text: String, level: LogLevel) {
    guard let sender else { return }
    var text = Substring(text)
    if text.last == "\n" { text = text.dropLast() }
    var record: [UInt8] = []
    LogRecord.encode(level: level, output: text, into: &record)
    sender.append(record)
  }
}

/// `[DEBUG]` to `[ERROR]`, by level.
private let logTags = LogLevel.allCases.map { Array($0.tag.utf8) }
