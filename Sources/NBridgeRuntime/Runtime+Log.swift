import CJavaScriptCore
import Glibc
import NBridgePlugin

/// `nbridge.log` and `--log-to`: records printed locally and, when forwarding, queued for the
/// sender thread with everything else the run prints.
extension Runtime {
  /// The least level `nbridge.log` prints: `--log-level`, else the manifest's `log.level`, else debug.
  var logMinimum: LogLevel { configuration.logLevel ?? configuration.manifest.log?.level ?? .debug }

  /// Starts the sender thread when the run forwards its records.
  func startLogForwarding() {
    guard let destination = configuration.logDestination, logSender == nil else { return }
    let sender = LogSender(destination: destination, app: configuration.manifest.id)
    sender.start()
    logSender = sender
  }

  /// At the end of the run: waits (at most 2 s, and only when connected) for the viewer's
  /// acknowledgements, then says on stderr how many records it never got.
  func finishLogForwarding() {
    guard let sender = logSender else { return }
    logSender = nil
    let undelivered = sender.finish()
    guard undelivered > 0 else { return }
    let text = "nbridge: \(undelivered) log record\(undelivered == 1 ? "" : "s") not delivered to \(sender.destination)\n"
    if let output = configuration.output { output(2, text) } else { writeAll(2, text) }
  }

  /// One `nbridge.log` call: `[INFO] index.js:12 message` on stdout (warn and error on stderr),
  /// and the record for the viewer when forwarding.
  func log(level: LogLevel, message units: UnsafeBufferPointer<UInt16>, stack: String) {
    var caller = CallerFrame(stack: Substring(stack))
    if let frame = caller, frame.line == 1, let shift = columnShifts[frame.file] {
      caller?.column = max(1, frame.column - shift)
    }
    var line = level.tag + " "
    if let caller { line += caller.fileName + ":" + String(caller.line) + " " }
    line += String(decoding: units, as: UTF16.self)
    line += "\n"
    let fd: Int32 = level >= .warn ? 2 : 1
    if let output = configuration.output { output(fd, line) } else { writeAll(fd, line) }
    logSender?.append(LogRecord(level: level, message: units, caller: caller))
  }

  /// Forwards what the run printed (console, error reports) as a `console` record.
  func forwardOutput(_ text: String, level: LogLevel) {
    guard let logSender else { return }
    var text = Substring(text)
    if text.last == "\n" { text = text.dropLast() }
    logSender.append(LogRecord(level: level, output: String(text)))
  }
}

/// `native.log(level, message, stack)`: the one crossing of an `nbridge.log` call.
let nativeLog: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let ref = runtime.js.ref
    let level = LogLevel(rawValue: Int(JSValueToNumber(ref, args[0], nil))) ?? .info
    guard let message = JSValueToStringCopy(ref, args[1], nil) else { return nil }
    defer { JSStringRelease(message) }
    let length = JSStringGetLength(message)
    let units = UnsafeBufferPointer(start: length > 0 ? JSStringGetCharactersPtr(message) : nil, count: length)
    runtime.log(level: level, message: units, stack: argc > 2 ? runtime.js.toString(args[2]) : "")
    return nil
  }
}
