/// Numbers written as JavaScript writes them (`Number.prototype.toString`, which
/// `JSON.stringify` uses): the shortest digits that read back as the same double, placed by the
/// ECMAScript rules — plain up to 21 integer digits, `0.000001` down to 1e-6, exponent form
/// (`1e+21`, `1.5e-7`) beyond; `-0` is `0`.
enum NumberText {
  /// The text of a finite `value`.
  static func javaScript(_ value: Double) -> String {
    if value == 0 { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    // Swift's description holds the shortest round-trip digits: "1.2345e-07", "5e-324", "0.001".
    var (digits, exponent) = shortestDigits(abs(value).description)
    while digits.count > 1 && digits.last == "0" { digits.removeLast() }
    let k = digits.count
    let n = exponent  // value = 0.d1d2...dk × 10^n
    var text = value < 0 ? "-" : ""
    if k <= n && n <= 21 {
      text += digits + String(repeating: "0", count: n - k)
    } else if 0 < n && n <= 21 {
      text += digits.prefix(n) + "." + digits.dropFirst(n)
    } else if -6 < n && n <= 0 {
      text += "0." + String(repeating: "0", count: -n) + digits
    } else {
      let e = n - 1
      text += String(digits.prefix(1)) + (k > 1 ? "." + digits.dropFirst() : "") + "e" + (e >= 0 ? "+" : "-")
        + String(abs(e))
    }
    return text
  }

  /// The significant digits (no leading zeros) and `n` with value = 0.digits × 10^n, read from
  /// a positive number's Swift description.
  private static func shortestDigits(_ description: String) -> (String, Int) {
    var mantissa = Substring(description)
    var exponent = 0
    if let e = description.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = description[..<e]
      exponent = Int(description[description.index(after: e)...].replacing("+", with: "")) ?? 0
    }
    let point = mantissa.firstIndex(of: ".")
    let integerPart = point.map { mantissa[..<$0] } ?? mantissa
    let fraction = point.map { mantissa[mantissa.index(after: $0)...] } ?? ""
    var digits = String(integerPart) + fraction
    var n = integerPart.count + exponent
    while digits.first == "0" && digits.count > 1 {
      digits.removeFirst()
      n -= 1
    }
    return (digits, n)
  }
}
