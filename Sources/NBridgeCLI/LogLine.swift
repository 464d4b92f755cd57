import NBridgePlugin

/// One line a client sent the viewer, read as a flat JSON object in place: the fields the viewer
/// uses, string values as ranges of their escaped bytes (so `--json` passes a record on as sent,
/// lone surrogates and all). Nil for anything else (the viewer counts and skips it).
struct LogLine {
  var hello = false
  var app: Range<Int>?
  var pid: Int64?
  var run: Range<Int>?
  var seq: UInt64?
  var time: Int64?
  var level: LogLevel?
  var message: Range<Int>?
  var file: Range<Int>?
  var line: Int64?
  var source: Range<Int>?
  var dropped: Int64?
  var from: Int64?
  var to: Int64?

  // swift-format-ignore
  private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
  private static let comma = UInt8(ascii: ","), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")

  /// Parses `bytes` (one line, without its newline).
  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    var i = 0
    let n = bytes.count
    func skipSpace() { while i < n && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D) { i += 1 } }
    /// A string's content range; `i` ends after its closing quote.
    func string() -> Range<Int>? {
      guard i < n, bytes[i] == LogLine.quote else { return nil }
      i += 1
      let start = i
      while i < n {
        let b = bytes[i]
        if b == LogLine.quote {
          i += 1
          return start..<(i - 1)
        }
        if b < 0x20 { return nil }
        if b == LogLine.backslash {
          guard i + 1 < n else { return nil }
          switch bytes[i + 1] {
          case UInt8(ascii: "u"):
            guard i + 5 < n, (2...5).allSatisfy({ LogLine.isHex(bytes[i + $0]) }) else { return nil }
            i += 6
          case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
          default: return nil
          }
          continue
        }
        i += 1
      }
      return nil
    }
    /// A number's integer part (a fraction or exponent is read and dropped).
    func number() -> Int64? {
      var negative = false
      if i < n && bytes[i] == UInt8(ascii: "-") {
        negative = true
        i += 1
      }
      let start = i
      var value: Int64 = 0
      while i < n, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
        value = value &* 10 &+ Int64(bytes[i] - UInt8(ascii: "0"))
        i += 1
      }
      guard i > start else { return nil }
      while i < n, LogLine.isNumberTail(bytes[i]) { i += 1 }
      return negative ? -value : value
    }
    func literal(_ word: String) -> Bool {
      let utf8 = Array(word.utf8)
      guard i + utf8.count <= n, (0..<utf8.count).allSatisfy({ bytes[i + $0] == utf8[$0] }) else { return false }
      i += utf8.count
      return true
    }
    func key(_ range: Range<Int>, is name: StaticString) -> Bool {
      guard range.count == name.utf8CodeUnitCount else { return false }
      return name.withUTF8Buffer { name in (0..<name.count).allSatisfy { bytes[range.lowerBound + $0] == name[$0] } }
    }

    skipSpace()
    guard i < n, bytes[i] == LogLine.open else { return nil }
    i += 1
    skipSpace()
    if i < n && bytes[i] == LogLine.close {
      i += 1
    } else {
      while true {
        skipSpace()
        guard let name = string() else { return nil }
        skipSpace()
        guard i < n, bytes[i] == LogLine.colon else { return nil }
        i += 1
        skipSpace()
        guard i < n else { return nil }
        if bytes[i] == LogLine.quote {
          guard let value = string() else { return nil }
          if key(name, is: "app") {
            app = value
          } else if key(name, is: "run") {
            run = value
          } else if key(name, is: "level") {
            level = LogLevel(name: String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self))
          } else if key(name, is: "msg") {
            message = value
          } else if key(name, is: "file") {
            file = value
          } else if key(name, is: "src") {
            source = value
          }
        } else if bytes[i] == UInt8(ascii: "-") || (bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")) {
          guard let value = number() else { return nil }
          if key(name, is: "seq") {
            guard value > 0 else { return nil }
            seq = UInt64(value)
          } else if key(name, is: "t") {
            time = value
          } else if key(name, is: "line") {
            line = value
          } else if key(name, is: "pid") {
            pid = value
          } else if key(name, is: "hello") {
            hello = true
          } else if key(name, is: "dropped") {
            dropped = value
          } else if key(name, is: "from") {
            from = value
          } else if key(name, is: "to") {
            to = value
          }
        } else if !(literal("true") || literal("false") || literal("null")) {
          return nil
        }
        skipSpace()
        guard i < n else { return nil }
        if bytes[i] == LogLine.comma {
          i += 1
          continue
        }
        guard bytes[i] == LogLine.close else { return nil }
        i += 1
        break
      }
    }
    skipSpace()
    guard i == n else { return nil }
    // What `--json` passes on must be UTF-8.
    if bytes.contains(where: { $0 >= 0x80 }), String(validating: bytes, as: UTF8.self) == nil { return nil }
    guard hello || seq != nil else { return nil }
  }

  private static func isHex(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
  }

  private static func isNumberTail(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e")
      || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
  }

  /// The text of an escaped JSON string's bytes (a lone surrogate shows as U+FFFD).
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.contains(LogLine.backslash) else { return String(decoding: bytes, as: UTF8.self) }
    var units: [UInt16] = []
    units.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      guard b == LogLine.backslash, i + 1 < bytes.count else {
        // Copy a run of plain bytes through UTF-16.
        var j = i + 1
        while j < bytes.count && bytes[j] != LogLine.backslash { j += 1 }
        units += String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<j]), as: UTF8.self).utf16
        i = j
        continue
      }
      switch bytes[i + 1] {
      case UInt8(ascii: "n"): units.append(0x0A)
      case UInt8(ascii: "r"): units.append(0x0D)
      case UInt8(ascii: "t"): units.append(0x09)
      case UInt8(ascii: "b"): units.append(0x08)
      case UInt8(ascii: "f"): units.append(0x0C)
      case UInt8(ascii: "u") where i + 5 < bytes.count:
        let hex = String(decoding: UnsafeBufferPointer(rebasing: bytes[(i + 2)..<(i + 6)]), as: UTF8.self)
        units.append(UInt16(hex, radix: 16) ?? 0xFFFD)
        i += 4
      default: units.append(UInt16(bytes[i + 1]))
      }
      i += 2
    }
    return String(decoding: units, as: UTF16.self)
  }
}
