/// Shared sizes and helpers.
enum Bench {
  /// A 16-byte key: `prefix` then the zero-padded index.
  static func key(_ prefix: String, _ i: Int) -> String {
    let digits = String(i)
    return prefix + String(repeating: "0", count: max(0, 16 - prefix.count - digits.count)) + digits
  }
}
