import NBridgePlugin

/// One line a client sent the viewer, read as a flat JSON object in place: the fields the viewer
/// uses, string values as ranges of their escaped bytes (so `--json` passes a record on as sent,
/// lone surrogates and all). Nil for anything else (the viewer counts and skips it), and for a
/// line that names a field the viewer adds itself, so `--json` never holds two of one name: a
/// record with `app` or `pid` (the hello's), any line with `peerUid`, or a name with an escape.
package struct LogLine {
  /// Whether the line is the hello a sender opens with.
  package var hello = false
  /// The hello's app id (escaped bytes).
  package var app: Range<Int>?
  /// The hello's process id.
  package var pid: Int64?
  /// The hello's run id (escaped bytes).
  package var run: Range<Int>?
  /// The line's number.
  package var seq: UInt64?
  /// Wall-clock ms since the epoch.
  package var time: Int64?
  /// A record's level.
  package var level: LogLevel?
  /// A record's message (escaped bytes).
  package var message: Range<Int>?
  /// A record's caller's file (escaped bytes).
  package var file: Range<Int>?
  /// A record's caller's line.
  package var line: Int64?
  /// Where a record came from: `log` or `console` (escaped bytes).
  package var source: Range<Int>?
  /// A dropped marker's count.
  package var dropped: Int64?
  /// The first record a dropped marker stands for.
  package var from: Int64?
  /// The last record a dropped marker stands for.
  package var to: Int64?

  // swift-format-ignore
  private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
  private static let comma = UInt8(ascii: ","), open = UInt8(ascii: "{"), close = UInt8(ascii: "}")

  /// Parses `bytes` (one line, without its newline), field names as `LogWire` defines them.
  package init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    var scan = Scanner(bytes: bytes)
    scan.skipSpace()
    guard scan.take(LogLine.open) else { return nil }
    scan.skipSpace()
    var namesAppOrPid = false
    if !scan.take(LogLine.close) {
      while true {
        scan.skipSpace()
        guard let name = scan.string(), !bytes[name].contains(LogLine.backslash), !scan.key(name, is: LogWire.peerUid)
        else { return nil }
        if scan.key(name, is: LogWire.app) || scan.key(name, is: LogWire.pid) { namesAppOrPid = true }
        scan.skipSpace()
        guard scan.take(LogLine.colon) else { return nil }
        scan.skipSpace()
        guard let next = scan.peek else { return nil }
        if next == LogLine.quote {
          guard let value = scan.string() else { return nil }
          if scan.key(name, is: LogWire.app) {
            app = value
          } else if scan.key(name, is: LogWire.run) {
            run = value
          } else if scan.key(name, is: LogWire.level) {
            level = scan.level(value)
          } else if scan.key(name, is: LogWire.message) {
            message = value
          } else if scan.key(name, is: LogWire.file) {
            file = value
          } else if scan.key(name, is: LogWire.source) {
            source = value
          }
        } else if next == UInt8(ascii: "-") || (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) {
          guard let value = scan.number() else { return nil }
          if scan.key(name, is: LogWire.seq) {
            guard value > 0 else { return nil }
            seq = UInt64(value)
          } else if scan.key(name, is: LogWire.time) {
            time = value
          } else if scan.key(name, is: LogWire.line) {
            line = value
          } else if scan.key(name, is: LogWire.pid) {
            pid = value
          } else if scan.key(name, is: LogWire.hello) {
            hello = true
          } else if scan.key(name, is: LogWire.dropped) {
            dropped = value
          } else if scan.key(name, is: LogWire.from) {
            from = value
          } else if scan.key(name, is: LogWire.to) {
            to = value
          }
        } else if !(scan.literal("true") || scan.literal("false") || scan.literal("null")) {
          return nil
        }
        scan.skipSpace()
        if scan.take(LogLine.comma) { continue }
        guard scan.take(LogLine.close) else { return nil }
        break
      }
    }
    scan.skipSpace()
    guard scan.i == bytes.count else { return nil }
    // What `--json` passes on must be UTF-8.
    if !scan.isASCII, String(validating: bytes, as: UTF8.self) == nil { return nil }
    guard hello || seq != nil, hello || !namesAppOrPid else { return nil }
  }

  /// A cursor over one line (a struct with mutating methods: no closures over a variable, so no
  /// run-time exclusivity checks on every byte).
  private struct Scanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    /// No byte seen so far was past ASCII (strings are where such bytes can be).
    var isASCII = true

    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipSpace() {
      while i < bytes.count && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D) { i += 1 }
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard i < bytes.count, bytes[i] == byte else { return false }
      i += 1
      return true
    }

    /// A string's content range; `i` ends after its closing quote.
    mutating func string() -> Range<Int>? {
      guard take(LogLine.quote) else { return nil }
      let start = i
      let n = bytes.count
      while i < n {
        let b = bytes[i]
        if b == LogLine.quote {
          i += 1
          return start..<(i - 1)
        }
        if b < 0x20 { return nil }
        if b >= 0x80 { isASCII = false }
        if b == LogLine.backslash {
          guard i + 1 < n else { return nil }
          switch bytes[i + 1] {
          case UInt8(ascii: "u"):
            guard i + 5 < n, LogLine.isHex(bytes[i + 2]), LogLine.isHex(bytes[i + 3]), LogLine.isHex(bytes[i + 4]),
              LogLine.isHex(bytes[i + 5])
            else { return nil }
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
    mutating func number() -> Int64? {
      let negative = take(UInt8(ascii: "-"))
      let start = i
      var value: Int64 = 0
      while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
        value = value &* 10 &+ Int64(bytes[i] - UInt8(ascii: "0"))
        i += 1
      }
      guard i > start else { return nil }
      while i < bytes.count, LogLine.isNumberTail(bytes[i]) { i += 1 }
      return negative ? -value : value
    }

    mutating func literal(_ word: StaticString) -> Bool {
      guard i + word.utf8CodeUnitCount <= bytes.count, matches(i..<(i + word.utf8CodeUnitCount), word) else {
        return false
      }
      i += word.utf8CodeUnitCount
      return true
    }

    func key(_ range: Range<Int>, is name: StaticString) -> Bool {
      range.count == name.utf8CodeUnitCount && matches(range, name)
    }

    /// The level a string names, in any case (`warning` too), without making a `String`.
    func level(_ range: Range<Int>) -> LogLevel? {
      for (name, level) in LogLine.levels where range.count == name.utf8CodeUnitCount {
        if matches(range, name, ignoringCase: true) { return level }
      }
      return nil
    }

    private func matches(_ range: Range<Int>, _ word: StaticString, ignoringCase: Bool = false) -> Bool {
      word.withUTF8Buffer { word in
        for k in 0..<word.count {
          let b = bytes[range.lowerBound + k]
          if b != word[k] && !(ignoringCase && b | 0x20 == word[k]) { return false }
        }
        return true
      }
    }
  }

  private static let levels: [(StaticString, LogLevel)] = [
    ("debug", .debug), ("info", .info), ("warn", .warn), ("warning", .warn), ("error", .error),
  ]

  private static func isHex(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9"))
      || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "f"))
  }

  private static func isNumberTail(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: ".") || b == UInt8(ascii: "e")
      || b == UInt8(ascii: "E") || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
  }

  /// The text of an escaped JSON string's bytes (a lone surrogate shows as U+FFFD).
  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
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
