import NBridgePlugin
import NBridgeTesting
import Testing

/// nbridge's JSON writer and parser against JavaScriptCore's own `JSON.stringify`/`JSON.parse`.
@Suite struct JSONDifferentialTests {
  /// A few thousand doubles: integers at the 2^53 edges, powers of ten across the format
  /// boundaries (1e-7, 1e21), subnormals, -0, and pseudo-random bit patterns.
  static var numbers: [Double] {
    var values: [Double] = [0, -0.0, 1, -1, 0.1, 0.5, 1.5, -2.25, 2.2250738585072014e-308,
      1.7976931348623157e308, -1.7976931348623157e308, 9007199254740991, 9007199254740992,
      -9007199254740992, 4503599627370496.5, 1e21, 1e-7, 1.5e-7, 0.000001, 0.0000015]
    // Written as text: the literals would not be exact (subnormals, past 2^53).
    values += ["5e-324", "-5e-324", "9007199254740993", "123456789012345680000"].compactMap { Double($0) }
    for e in -330...310 {
      values.append(Double("1e\(e)") ?? 0)
      values.append(Double("1.2345e\(e)") ?? 0)
    }
    for k in 0...64 { values.append(Double(sign: .plus, exponent: k, significand: 1) - 1) }
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<3000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let value = Double(bitPattern: state)
      if value.isFinite { values.append(value) }
      values.append(Double(Int64(bitPattern: state) >> Int64(state % 60)))
    }
    return values.filter(\.isFinite)
  }

  @Test func numbersAreWrittenAsJSONStringifyWritesThem() async throws {
    let numbers = Self.numbers
    let ours = JSONValue.array(numbers.map { .number($0) }).jsonText
    let value = try await NBridgeTest.evaluate(
      """
      const ours = \(JSONValue.string(ours).jsonText).slice(1, -1).split(',');
      const values = JSON.parse(\(JSONValue.string(ours).jsonText));
      const mismatches = [];
      values.forEach((v, i) => { if (JSON.stringify(v) !== ours[i]) mismatches.push(ours[i] + ' vs ' + JSON.stringify(v)); });
      return { count: values.length, mismatches: mismatches.slice(0, 10) };
      """)
    #expect(value["count"] == .number(Double(numbers.count)))
    #expect(value["mismatches"] == [], "\(value)")
    // And they read back as the same doubles (JSON.parse is the reference).
    guard case .array(let parsed) = try JSONValue(parsing: ours) else { Issue.record("not an array"); return }
    let differing = zip(parsed, numbers).filter { $0.0 != .number($0.1) }.prefix(5).map { "\($0.0) vs \($0.1)" }
    #expect(differing.isEmpty, "\(differing)")
  }

  @Test func stringsRoundTripEveryEscape() async throws {
    var text = ""
    for scalar in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
    text += "é 👋 \u{2028}\u{2029} \u{FEFF}" + String(repeating: "long ", count: 2000)
    let ours = JSONValue.string(text).jsonText
    let value = try await NBridgeTest.evaluate(
      "const t = \(JSONValue.string(ours).jsonText); return [JSON.stringify(JSON.parse(t)) === t, JSON.parse(t).length];")
    #expect(value == [true, .number(Double(text.utf16.count))], "\(ours.prefix(200))")
  }

  @Test func theParserRejectsWhatJSONParseRejects() async throws {
    let texts = [
      "{}", "[]", "0", "-0", "1e5", "1E+5", "[1,2]", "{\"a\":1}", "\"\\u00e9\"", " true ", "null", "\"\\ud800\"",
      "", "[", "{", "01", "1.", ".5", "+1", "1e", "[1,]", "{\"a\":1,}", "{a:1}", "'x'", "\"\\x41\"", "\"\t\"",
      "NaN", "Infinity", "[1] x", "tru", "\"abc", "{\"a\" 1}", "[1 2]", "\"\\u12\"", "- 1", "1e+", "[[[]]",
    ]
    let value = try await NBridgeTest.evaluate(
      """
      return \(JSONValue.array(texts.map { .string($0) }).jsonText).map((t) => {
        try { JSON.parse(t); return true; } catch (e) { return false; }
      });
      """)
    let ours = texts.map { text -> JSONValue in .bool((try? JSONValue(parsing: text)) != nil) }
    for (index, text) in texts.enumerated() {
      #expect(ours[index] == value[index], "JSON.parse(\(text.debugDescription)): JSC \(value[index].map { "\($0)" } ?? "?")")
    }
  }
}
