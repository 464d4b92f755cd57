/// The rule for app ids, checked wherever an id becomes part of a path (the data folder, the
/// control socket, the installed record, the desktop entry, the fetch timer, the log file):
/// ASCII letters, digits, `.`, `-` and `_`, 1 to 128 bytes, not starting with `.` and without `..`,
/// so an id is always one plain file name.
package enum AppID {
  /// The longest id, in bytes: `<id>.desktop` and the fetch timer's unit name stay well under a
  /// file name's 255 bytes.
  package static let maximumLength = 128

  /// Why `text` cannot be an app id (a phrase such as `must not start with '.'`), or nil when it can.
  package static func problem(_ text: String) -> String? {
    // One plain loop over the bytes: generic sequence code here (`zip` of the view and its
    // `dropFirst()`) cost every launch four protocol conformance lookups, about 0.8 M instructions,
    // since the control socket's claim checks the id before a run starts.
    let bytes = text.utf8
    if bytes.isEmpty { return "must not be empty" }
    if bytes.count > maximumLength { return "must be at most \(maximumLength) bytes long" }
    let dot = UInt8(ascii: ".")
    var allowed = true
    var doubleDot = false
    var previous: UInt8 = 0
    for byte in bytes {
      if !isAllowed(byte) { allowed = false }
      if byte == dot && previous == dot { doubleDot = true }
      previous = byte
    }
    guard allowed else { return "must be reverse-DNS: ASCII letters, digits, '.', '-' and '_' only" }
    if bytes.first == dot { return "must not start with '.'" }
    if doubleDot { return "must not contain '..'" }
    return nil
  }

  /// Whether `text` is a valid app id.
  package static func isValid(_ text: String) -> Bool { problem(text) == nil }

  /// Whether `byte` may appear in an id.
  package static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
      return true
    default:
      return false
    }
  }
}
