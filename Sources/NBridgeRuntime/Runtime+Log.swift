import CJavaScriptCore
import Glibc
import NBridgePlugin
import NBridgeSystem

/// `nbridge.log` and `--log-to`: records printed locally and, when forwarding, queued for the
/// sender thread with everything else the run prints.
extension Runtime {
  /// The least level `nbridge.log` prints: `--log-level`, else the manifest's `log.level`, else debug.
  var logMinimum: LogLevel { configuration.logLevel ?? configuration.manifest.log?.level ?? .debug }

  /// Starts the sender thread when the run forwards its records.
  func startLogForwarding() {
    guard let destination = configuration.logDestination, logSender == nil else { return }
    let sender: LogSender
    do {
      sender = try LogSender(destination: destination, app: configuration.manifest.id)
    } catch {
      // The run goes on, printing its records here only.
      let text = "nbridge: cannot forward log records to \(destination): \(error)\n"
      if let output = configuration.output { output(2, text) } else { writeAll(2, text) }
      return
    }
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
    let text =
      "nbridge: \(undelivered) log record\(undelivered == 1 ? "" : "s") not delivered to \(sender.destination)\n"
    if let output = configuration.output { output(2, text) } else { writeAll(2, text) }
  }

  /// One `nbridge.log` call: `[INFO] index.js:12 message` on stdout (warn and error on stderr),
  /// and the record for the viewer when forwarding.
  func log(level: LogLevel, message units: UnsafeBufferPointer<UInt16>, stack: UnsafeBufferPointer<UInt16>) {
    let site = logSites.site(in: stack, columnShifts: logColumnShifts)
    logLine.removeAll(keepingCapacity: true)
    logLine += logTags[level.rawValue]
    logLine.append(0x20)
    logLine += site.local
    UTF16Text.appendUTF8(units, to: &logLine)
    logLine.append(0x0A)
    let fd: Int32 = level >= .warn ? 2 : 1
    if let output = configuration.output {
      output(fd, String(decoding: logLine, as: UTF8.self))
    } else {
      try? POSIX.writeAll(fd, logLine, what: "log")
    }
    guard let logSender else { return }
    logRecord.removeAll(keepingCapacity: true)
    LogRecord.encode(level: level, message: units, site: site.record, into: &logRecord)
    logSender.append(logRecord)
  }

  /// Forwards what the run printed (console, error reports) as a `console` record.
  func forwardOutput(_ text: String, level: LogLevel) {
    guard let logSender else { return }
    var text = Substring(text)
    if text.last == "\n" { text = text.dropLast() }
    var record: [UInt8] = []
    LogRecord.encode(level: level, output: text, into: &record)
    logSender.append(record)
  }
}

/// `[DEBUG]` to `[ERROR]`, by level.
private let logTags = LogLevel.allCases.map { Array($0.tag.utf8) }

/// `native.log(level, message, stack)`: the one crossing of an `nbridge.log` call.
let nativeLog: JSObjectCallAsFunctionCallback = { ctx, _, _, argc, argv, exception in
  withRuntime(argc, argv, exception) { runtime, args in
    let ref = runtime.js.ref
    let level = LogLevel(rawValue: Int(saturating: JSValueToNumber(ref, args[0], nil))) ?? .info
    guard let message = JSValueToStringCopy(ref, args[1], nil) else { return nil }
    defer { JSStringRelease(message) }
    guard let stack = JSValueToStringCopy(ref, argc > 2 ? args[2] : JSValueMakeUndefined(ref), nil) else { return nil }
    defer { JSStringRelease(stack) }
    runtime.log(level: level, message: utf16(message), stack: utf16(stack))
    return nil
  }
}

/// A JS string's UTF-16 units, valid while the string is.
private func utf16(_ string: JSStringRef) -> UnsafeBufferPointer<UInt16> {
  let length = JSStringGetLength(string)
  return UnsafeBufferPointer(start: length > 0 ? JSStringGetCharactersPtr(string) : nil, count: length)
}

/// JavaScript's UTF-16 as UTF-8 bytes for the terminal (a lone surrogate prints as U+FFFD).
enum UTF16Text {
  static func appendUTF8(_ units: UnsafeBufferPointer<UInt16>, to out: inout [UInt8]) {
    var i = 0
    let n = units.count
    while i < n {
      let u = units[i]
      i += 1
      if u < 0x80 {
        out.append(UInt8(u))
      } else if u < 0x800 {
        out.append(UInt8(0xC0 | (u >> 6)))
        out.append(UInt8(0x80 | (u & 0x3F)))
      } else if u & 0xFC00 == 0xD800, i < n, units[i] & 0xFC00 == 0xDC00 {
        let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[i]) - 0xDC00)
        i += 1
        out += [
          UInt8(0xF0 | (scalar >> 18)), UInt8(0x80 | ((scalar >> 12) & 0x3F)), UInt8(0x80 | ((scalar >> 6) & 0x3F)),
          UInt8(0x80 | (scalar & 0x3F)),
        ]
      } else if u & 0xF800 == 0xD800 {
        out += [0xEF, 0xBF, 0xBD]
      } else {
        out += [UInt8(0xE0 | (u >> 12)), UInt8(0x80 | ((u >> 6) & 0x3F)), UInt8(0x80 | (u & 0x3F))]
      }
    }
  }
}
