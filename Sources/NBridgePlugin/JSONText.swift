/// JSON text to and from `JSONValue`, without Foundation (which would cost every
/// start-up several milliseconds).
extension JSONValue {
  /// Parses JSON text; throws `JSONSyntaxError` naming the offset of the first bad character.
  public init(parsing text: String) throws(JSONSyntaxError) {
    var text = text
    let result: Result<JSONValue, JSONSyntaxError> = text.withUTF8 { bytes in
      var parser = JSONParser<UTF8>(bytes)
      do throws(JSONSyntaxError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
    }
    self = try result.get()
  }

  /// Parses JSON text given as UTF-16 code units (what JavaScriptCore strings hold).
  package init(parsingUTF16 units: UnsafeBufferPointer<UInt16>) throws(JSONSyntaxError) {
    var parser = JSONParser<UTF16>(units)
    self = try parser.parseDocument()
  }

  /// Parses a call's options: like `init(parsingUTF16:)`, but a string that is not well-formed
  /// UTF-16 (a lone surrogate, raw or escaped) is an error naming its path instead of U+FFFD,
  /// so two different keys can never become one.
  package init(parsingOptionsUTF16 units: UnsafeBufferPointer<UInt16>) throws(JSONSyntaxError) {
    var parser = JSONParser<UTF16>(units, wellFormed: true)
    self = try parser.parseDocument()
  }

  /// Parses a call's options from UTF-8 text (a page's message); lone surrogates are refused as
  /// by `init(parsingOptionsUTF16:)`.
  package init(parsingOptions text: String) throws(JSONSyntaxError) {
    var text = text
    let result: Result<JSONValue, JSONSyntaxError> = text.withUTF8 { bytes in
      var parser = JSONParser<UTF8>(bytes, wellFormed: true)
      do throws(JSONSyntaxError) { return .success(try parser.parseDocument()) } catch { return .failure(error) }
    }
    self = try result.get()
  }

  /// The compact JSON text of this value, as `JSON.stringify` writes it.
  public var jsonText: String {
    var writer = JSONWriter<UInt8>()
    writer.write(self)
    return String(decoding: writer.out, as: UTF8.self)
  }

  /// Calls `body` with the compact JSON text of this value as UTF-16 code units (what
  /// JavaScriptCore strings hold), without building a Swift `String`.
  package func withJSONTextUTF16<R>(_ body: (UnsafeBufferPointer<UInt16>) throws -> R) rethrows -> R {
    var writer = JSONWriter<UInt16>()
    writer.write(self)
    return try writer.out.withUnsafeBufferPointer(body)
  }
}

/// JSON text that could not be parsed, or a value in it that a call's options may not hold.
public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
  /// Offset, in code units, of the character that stopped the parser.
  public var offset: Int
  /// What was expected there.
  public var reason: String
  /// The text is JSON, but a value in it is refused (a lone surrogate, nesting too deep): `reason`
  /// then says what a value must be, and `path` where it is.
  package var refusesValue = false
  /// Where the parser was, innermost last: object keys and array positions.
  var components: [CodingPathComponent] = []

  /// An error at `offset`.
  package init(offset: Int, reason: String, refusesValue: Bool = false) {
    self.offset = offset
    self.reason = reason
    self.refusesValue = refusesValue
  }

  /// Where the parser was, as a script author writes it (`value.a[2]`; `options` at the top).
  package var path: String { formatCodingPath(components.reversed().map(\.key)) }

  /// A one-line description.
  public var description: String {
    refusesValue ? "\"\(path)\" \(reason)" : "invalid JSON at offset \(offset): \(reason)"
  }
}

/// One step of a path: an object's key or an array's position.
enum CodingPathComponent: Sendable {
  case key(String)
  case index(Int)

  var key: any CodingKey {
    switch self {
    case .key(let name): AnyCodingKey(stringValue: name)
    case .index(let i): AnyCodingKey(intValue: i)
    }
  }
}

/// A recursive-descent parser over a buffer of code units of one Unicode encoding.
struct JSONParser<Encoding: Unicode.Encoding> where Encoding.CodeUnit: FixedWidthInteger & UnsignedInteger {
  typealias Unit = Encoding.CodeUnit
  let input: UnsafeBufferPointer<Unit>
  var index = 0
  var scratch: [Unit] = []
  var depth = 0
  /// Whether a lone surrogate is an error rather than U+FFFD.
  let wellFormed: Bool

  init(_ input: UnsafeBufferPointer<Unit>, wellFormed: Bool = false) {
    self.input = input
    self.wellFormed = wellFormed
  }

  mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
    let value = try parseValue()
    skipSpace()
    guard index == input.count else { throw fail("end of input") }
    return value
  }

  func fail(_ reason: String) -> JSONSyntaxError { JSONSyntaxError(offset: index, reason: "expected \(reason)") }

  @inline(__always) func peek() -> UInt32? { index < input.count ? UInt32(input[index]) : nil }

  mutating func skipSpace() {
    while index < input.count {
      switch input[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    skipSpace()
    guard let c = peek() else { throw fail("a value") }
    switch c {
    case 0x22: return .string(try parseString())
    case 0x7B: return try parseObject()
    case 0x5B: return try parseArray()
    case 0x74: try literal("true"); return .bool(true)
    case 0x66: try literal("false"); return .bool(false)
    case 0x6E: try literal("null"); return .null
    default: return .number(try parseNumber())
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard index + bytes.count <= input.count else { throw fail("'\(word)'") }
    for (offset, byte) in bytes.enumerated() where UInt32(input[index + offset]) != UInt32(byte) {
      throw fail("'\(word)'")
    }
    index += bytes.count
  }

  mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > BridgeLimits.maxDepth {
      let reason = wellFormed ? "nests deeper than" : "nesting deeper than"
      throw JSONSyntaxError(offset: index, reason: "\(reason) \(BridgeLimits.maxDepth) levels", refusesValue: wellFormed)
    }
  }

  mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var object = JSONObject()
    skipSpace()
    if peek() == 0x7D { index += 1; return .object(object) }
    object.reserveCapacity(4)
    while true {
      skipSpace()
      guard peek() == 0x22 else { throw fail("a string key") }
      let key = try parseString()
      skipSpace()
      guard peek() == 0x3A else { throw fail("':'") }
      index += 1
      let value: JSONValue
      do throws(JSONSyntaxError) { value = try parseValue() } catch {
        throw error.inside(.key(key))
      }
      // JSON.stringify never writes a key twice; text that does keeps both, lookups see the first.
      object.appendUnchecked(key: key, value: value)
      skipSpace()
      switch peek() {
      case 0x2C: index += 1
      case 0x7D: index += 1; return .object(object)
      default: throw fail("',' or '}'")
      }
    }
  }

  mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
    try enter()
    defer { depth -= 1 }
    index += 1
    var elements: [JSONValue] = []
    skipSpace()
    if peek() == 0x5D { index += 1; return .array(elements) }
    while true {
      do throws(JSONSyntaxError) { elements.append(try parseValue()) } catch {
        throw error.inside(.index(elements.count))
      }
      skipSpace()
      switch peek() {
      case 0x2C: index += 1
      case 0x5D: index += 1; return .array(elements)
      default: throw fail("',' or ']'")
      }
    }
  }

  mutating func parseString() throws(JSONSyntaxError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes, decode the slice directly.
    let run = PlainText.plainRun(input, from: start)
    index = run.end
    if index < input.count, input[index] == 0x22 {
      let slice = UnsafeBufferPointer(rebasing: input[start..<index])
      index += 1
      return try makeString(slice, at: start, ascii: run.ascii)
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: input[start..<index])
    while index < input.count {
      let c = input[index]
      switch c {
      case 0x22:
        index += 1
        if wellFormed, Unit.bitWidth == 16 {
          try scratch.withUnsafeBufferPointer { (units) throws(JSONSyntaxError) in try checkSurrogates(units, at: start) }
        }
        return String(decoding: scratch, as: Encoding.self)
      case 0x5C:
        index += 1
        guard let e = peek() else { throw fail("an escape") }
        index += 1
        switch e {
        case 0x22, 0x5C, 0x2F: scratch.append(Unit(e))
        case 0x62: scratch.append(0x08)
        case 0x66: scratch.append(0x0C)
        case 0x6E: scratch.append(0x0A)
        case 0x72: scratch.append(0x0D)
        case 0x74: scratch.append(0x09)
        case 0x75:
          var code = try hex4()
          if (0xD800..<0xDC00).contains(code), peek() == 0x5C, index + 1 < input.count, input[index + 1] == 0x75 {
            let save = index
            index += 2
            let low = try hex4()
            if (0xDC00..<0xE000).contains(low) {
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else {
              index = save
            }
          }
          if wellFormed, (0xD800..<0xE000).contains(code) { throw loneSurrogate(UInt16(code), at: index - 6) }
          let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
          if let encoded = Encoding.encode(scalar) { scratch.append(contentsOf: encoded) }
        default: throw fail("a valid escape")
        }
      default:
        if c < 0x20 { throw fail("no control character in a string") }
        scratch.append(c)
        index += 1
      }
    }
    throw fail("'\"'")
  }

  /// Decodes code units; ASCII-only UTF-16 (`ascii`: most keys and many values) is copied byte by
  /// byte, which is several times faster than the generic transcoding path.
  @inline(__always)
  func makeString(_ units: UnsafeBufferPointer<Unit>, at start: Int, ascii: Bool) throws(JSONSyntaxError) -> String {
    if Unit.bitWidth == 16 {
      if ascii {
        return String(unsafeUninitializedCapacity: units.count) { buffer in
          for i in 0..<units.count { buffer[i] = UInt8(truncatingIfNeeded: units[i]) }
          return units.count
        }
      }
      if wellFormed { try checkSurrogates(units, at: start) }
    }
    return String(decoding: units, as: Encoding.self)
  }

  /// Throws at the first surrogate in UTF-16 `units` that is not half of a pair.
  func checkSurrogates(_ units: UnsafeBufferPointer<Unit>, at start: Int) throws(JSONSyntaxError) {
    var i = 0
    while i < units.count {
      let unit = UInt32(units[i])
      i += 1
      guard unit & 0xF800 == 0xD800 else { continue }
      if unit < 0xDC00, i < units.count, UInt32(units[i]) & 0xFC00 == 0xDC00 {
        i += 1
      } else {
        throw loneSurrogate(UInt16(unit), at: start + i - 1)
      }
    }
  }

  func loneSurrogate(_ unit: UInt16, at offset: Int) -> JSONSyntaxError {
    let hex = String(unit, radix: 16, uppercase: true)
    return JSONSyntaxError(
      offset: offset, reason: "must be well-formed UTF-16 (it holds a lone surrogate, U+\(hex))", refusesValue: true)
  }

  mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard index + 4 <= input.count else { throw fail("four hex digits") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let c = UInt32(input[index])
      let digit: UInt32
      switch c {
      case 0x30...0x39: digit = c - 0x30
      case 0x41...0x46: digit = c - 0x37
      case 0x61...0x66: digit = c - 0x57
      default: throw fail("a hex digit")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = index
    var negative = false
    if peek() == 0x2D { negative = true; index += 1 }
    var integer: UInt64 = 0
    var digits = 0
    let leadingZero = peek() == 0x30
    while let c = peek(), c >= 0x30, c <= 0x39 {
      if digits < 18 { integer = integer * 10 + UInt64(c - 0x30) }
      digits += 1
      index += 1
    }
    guard digits > 0 else { throw fail("a value") }
    guard !(leadingZero && digits > 1) else { throw JSONSyntaxError(offset: start, reason: "a number without leading zeros") }
    let next = peek()
    if next != 0x2E && next != 0x65 && next != 0x45 && digits <= 15 {
      let magnitude = Double(integer)
      return negative ? -magnitude : magnitude
    }
    if next == 0x2E {
      index += 1
      var fraction = 0
      while let c = peek(), c >= 0x30, c <= 0x39 { index += 1; fraction += 1 }
      guard fraction > 0 else { throw fail("a digit after '.'") }
    }
    if let e = peek(), e == 0x65 || e == 0x45 {
      index += 1
      if let s = peek(), s == 0x2B || s == 0x2D { index += 1 }
      var exponent = 0
      while let c = peek(), c >= 0x30, c <= 0x39 { index += 1; exponent += 1 }
      guard exponent > 0 else { throw fail("an exponent digit") }
    }
    var text = ""
    text.reserveCapacity(index - start)
    for i in start..<index { text.unicodeScalars.append(Unicode.Scalar(UInt8(truncatingIfNeeded: input[i]))) }
    guard let value = Double(text), value.isFinite else { throw JSONSyntaxError(offset: start, reason: "a finite number") }
    return value
  }
}

/// Writes `JSONValue`s as compact JSON text in UTF-8 or UTF-16 code units.
struct JSONWriter<Unit: FixedWidthInteger & UnsignedInteger> {
  var out: [Unit] = []

  init() { out.reserveCapacity(64) }

  @inline(__always) mutating func ascii(_ byte: UInt8) { out.append(Unit(byte)) }

  mutating func ascii(_ text: String) { for byte in text.utf8 { out.append(Unit(byte)) } }

  mutating func write(_ value: JSONValue) {
    switch value {
    case .null: ascii("null")
    case .bool(let b): ascii(b ? "true" : "false")
    case .number(let n): writeNumber(n)
    case .string(let s): writeString(s)
    case .array(let elements):
      ascii(0x5B)
      for (i, element) in elements.enumerated() {
        if i > 0 { ascii(0x2C) }
        write(element)
      }
      ascii(0x5D)
    case .object(let object):
      ascii(0x7B)
      for (i, member) in object.members.enumerated() {
        if i > 0 { ascii(0x2C) }
        writeString(member.key)
        ascii(0x3A)
        write(member.value)
      }
      ascii(0x7D)
    }
  }

  mutating func writeNumber(_ n: Double) {
    ascii(n.isFinite ? NumberText.javaScript(n) : "null")
  }

  static var hexDigits: StaticString { "0123456789abcdef" }

  mutating func writeString(_ s: String) {
    ascii(0x22)
    if Unit.bitWidth == 16 {
      for unit in s.utf16 { emit(UInt32(unit)) }
    } else {
      var s = s
      s.withUTF8 { writeEscaped($0) }
    }
    ascii(0x22)
  }

  /// Appends UTF-8 `bytes` (8-bit output only), copying the runs that need no escape in bulk.
  private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    for (i, byte) in bytes.enumerated() where byte == 0x22 || byte == 0x5C || byte < 0x20 {
      appendBytes(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
      emit(UInt32(byte))
      runStart = i + 1
    }
    appendBytes(UnsafeBufferPointer(rebasing: bytes[runStart...]))
  }

  @inline(__always) private mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard !bytes.isEmpty else { return }
    UnsafeRawBufferPointer(bytes).withMemoryRebound(to: Unit.self) { out.append(contentsOf: $0) }
  }

  @inline(__always) mutating func emit(_ unit: UInt32) {
    switch unit {
    case 0x22: ascii(0x5C); ascii(0x22)
    case 0x5C: ascii(0x5C); ascii(0x5C)
    case 0x0A: ascii(0x5C); ascii(0x6E)
    case 0x0D: ascii(0x5C); ascii(0x72)
    case 0x09: ascii(0x5C); ascii(0x74)
    case 0x08: ascii(0x5C); ascii(0x62)
    case 0x0C: ascii(0x5C); ascii(0x66)
    case 0..<0x20:
      ascii(0x5C); ascii(0x75); ascii(0x30); ascii(0x30)
      ascii(JSONWriter.hexDigits.utf8Start[Int(unit >> 4)])
      ascii(JSONWriter.hexDigits.utf8Start[Int(unit & 0xF)])
    default: out.append(Unit(truncatingIfNeeded: unit))
    }
  }
}

extension JSONSyntaxError {
  /// The error seen from the enclosing array or object: `component` is where it was.
  func inside(_ component: CodingPathComponent) -> JSONSyntaxError {
    var error = self
    error.components.append(component)
    return error
  }
}
