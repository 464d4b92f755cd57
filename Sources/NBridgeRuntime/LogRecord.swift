import Glibc
import NBridgePlugin

/// One record for the viewer. Everything but `seq` and `t` is encoded once, on the JS thread,
/// as the tail of its JSON line (`"level":...,"src":"log"}`), so the sender only prefixes it.
struct LogRecord: Sendable {
  /// Milliseconds since the epoch.
  var time: Int64
  /// `"level":"info","msg":"…","file":"…","line":12,"col":5,"fn":"…","src":"log"}`.
  var tail: [UInt8]

  /// What the record counts against the queue's byte limit.
  var size: Int { tail.count + 40 }

  /// A record of `nbridge.log` whose message is JavaScript's UTF-16 text.
  init(level: LogLevel, message: UnsafeBufferPointer<UInt16>, caller: CallerFrame?) {
    self.init(level: level, caller: caller, source: "log", length: message.count) { out in
      JSONEscaping.append(utf16: message, to: &out)
    }
  }

  /// A record of what the run printed (`console`, errors): `src` is `console`.
  init(level: LogLevel, output text: String) {
    self.init(level: level, caller: nil, source: "console", length: text.utf8.count) { out in
      JSONEscaping.append(utf8: text, to: &out)
    }
  }

  private init(
    level: LogLevel, caller: CallerFrame?, source: StaticString, length: Int, message: (inout [UInt8]) -> Void
  ) {
    time = LogRecord.now()
    let file = caller?.file ?? ""
    let function = caller?.function ?? []
    var out: [UInt8] = []
    out.reserveCapacity(length + file.utf8.count + function.count + 90)
    out += #""level":""#.utf8
    out += level.name.utf8
    out += #"","msg":""#.utf8
    message(&out)
    out += #"","file":""#.utf8
    JSONEscaping.append(utf8: file, to: &out)
    out += #"","line":"#.utf8
    JSONEscaping.appendDecimal(Int64(caller?.line ?? 0), to: &out)
    out += #","col":"#.utf8
    JSONEscaping.appendDecimal(Int64(caller?.column ?? 0), to: &out)
    out += #","fn":""#.utf8
    function.withUnsafeBufferPointer { JSONEscaping.append(utf16: $0, to: &out) }
    out += #"","src":""#.utf8
    source.withUTF8Buffer { out += $0 }
    out += #""}"#.utf8
    tail = out
  }

  /// The full JSON line for sequence number `seq`, appended to `out`.
  func append(seq: UInt64, to out: inout [UInt8]) {
    out += #"{"seq":"#.utf8
    JSONEscaping.appendDecimal(Int64(seq), to: &out)
    out += #","t":"#.utf8
    JSONEscaping.appendDecimal(time, to: &out)
    out.append(UInt8(ascii: ","))
    out += tail
    out.append(UInt8(ascii: "\n"))
  }

  /// Wall-clock milliseconds since the epoch.
  static func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }
}

/// JSON string escaping straight from JavaScript's UTF-16: a lone surrogate, which UTF-8
/// cannot carry, becomes a `\udxxx` escape, so the viewer's `--json` gives back the very string.
enum JSONEscaping {
  private static let hex = Array("0123456789abcdef".utf8)

  static func append(utf16 units: UnsafeBufferPointer<UInt16>, to out: inout [UInt8]) {
    var i = 0
    let n = units.count
    while i < n {
      let u = units[i]
      i += 1
      if u < 0x80 {
        appendASCII(UInt8(u), to: &out)
      } else if u < 0x800 {
        out.append(UInt8(0xC0 | (u >> 6)))
        out.append(UInt8(0x80 | (u & 0x3F)))
      } else if u & 0xFC00 == 0xD800, i < n, units[i] & 0xFC00 == 0xDC00 {
        let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[i]) - 0xDC00)
        i += 1
        out.append(UInt8(0xF0 | (scalar >> 18)))
        out.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
        out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (scalar & 0x3F)))
      } else if u & 0xF800 == 0xD800 {
        appendUnicodeEscape(u, to: &out)
      } else {
        out.append(UInt8(0xE0 | (u >> 12)))
        out.append(UInt8(0x80 | ((u >> 6) & 0x3F)))
        out.append(UInt8(0x80 | (u & 0x3F)))
      }
    }
  }

  static func append(utf8 text: String, to out: inout [UInt8]) {
    for byte in text.utf8 {
      if byte < 0x80 { appendASCII(byte, to: &out) } else { out.append(byte) }
    }
  }

  @inline(__always)
  private static func appendASCII(_ byte: UInt8, to out: inout [UInt8]) {
    switch byte {
    case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
    case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
    case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
    case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
    case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
    case 0..<0x20: appendUnicodeEscape(UInt16(byte), to: &out)
    default: out.append(byte)
    }
  }

  private static func appendUnicodeEscape(_ unit: UInt16, to out: inout [UInt8]) {
    out += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
    for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((unit >> UInt16(shift)) & 0xF)]) }
  }

  static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
    if value < 0 {
      out.append(UInt8(ascii: "-"))
      appendDecimal(-value, to: &out)
      return
    }
    if value >= 10 { appendDecimal(value / 10, to: &out) }
    out.append(UInt8(ascii: "0") + UInt8(value % 10))
  }
}
