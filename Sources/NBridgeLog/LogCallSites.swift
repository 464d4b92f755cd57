import Glibc

/// The places `nbridge.log` was called from, each read from the stack and encoded once: a call
/// from a place met before costs a scan of the stack's UTF-16, a hash and a compare.
///
/// Keyed by the caller's frame line (`fn@url:line:col`), which says all a record tells of it.
/// A fixed table, one place a slot: a place that collides with another is read again.
struct LogCallSites {
  /// What a record and the local line say of one place.
  struct Site {
    /// The caller's frame line, the key.
    var frame: [UInt16]
    /// `app.js:12 ` for the local line; empty when there is no caller.
    var local: [UInt8]
    /// The record's end from the message's closing quote (`LogRecord.site(_:)`).
    var record: [UInt8]
  }

  private var slots = [Site?](repeating: nil, count: 512)
  /// For a stack with no caller in it (called from native code only).
  private let nowhere = Site(frame: [], local: [], record: LogRecord.site(nil))
  /// File names met so far, by their UTF-16.
  private var files: [[UInt16]: (path: String, name: String)] = [:]

  /// The place in `stack` (its first line the log function's own frame); `columnShifts` says
  /// by script URL how far first-line columns are moved by the top-level-await wrapper.
  mutating func site(in stack: UnsafeBufferPointer<UInt16>, columnShifts: [String: Int]) -> Site {
    guard let range = CallerFrame.range(in: stack) else { return nowhere }
    let frame = UnsafeBufferPointer(rebasing: stack[range])
    var hash: UInt32 = 2_166_136_261
    for unit in frame { hash = (hash ^ UInt32(unit)) &* 16_777_619 }
    let slot = Int(hash % UInt32(slots.count))
    if let site = slots[slot], site.frame.count == frame.count,
      site.frame.withUnsafeBufferPointer({ memcmp($0.baseAddress!, frame.baseAddress!, frame.count * 2) == 0 })
    {
      return site
    }
    guard var caller = CallerFrame(frame: frame, files: &files) else { return nowhere }
    if caller.line == 1, let shift = columnShifts[caller.file] { caller.column = max(1, caller.column - shift) }
    var local = Array(caller.fileName.utf8)
    local.append(UInt8(ascii: ":"))
    JSONEscaping.appendDecimal(Int64(caller.line), to: &local)
    local.append(0x20)
    let site = Site(frame: Array(frame), local: local, record: LogRecord.site(caller))
    slots[slot] = site
    return site
  }
}
