/// Whole numbers from JS doubles that never trap: a native function's number argument is
/// whatever a script passed (NaN, ±Infinity, 1e300), and `Int(_:)` would stop the process.
extension FixedWidthInteger {
  /// `value` rounded toward zero and clamped to this type's range; NaN is 0.
  package init(saturating value: Double) {
    if value.isNaN {
      self = 0
    } else if value <= Double(Self.min) {
      self = Self.min
    } else if value >= Double(Self.max) {
      self = Self.max
    } else {
      self = Self(value.rounded(.towardZero))
    }
  }
}
