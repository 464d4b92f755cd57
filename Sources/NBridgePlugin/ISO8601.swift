#if canImport(Glibc)
  import Glibc
#endif

/// ISO 8601 times as JavaScript's `Date` writes and reads them, without Foundation.
///
/// Times are whole milliseconds since 1970-01-01T00:00:00Z (what `Date.getTime()`
/// returns). Formatting always gives UTC with milliseconds, exactly like
/// `Date.prototype.toISOString()`: `2024-05-01T09:30:00.000Z`.
public enum ISO8601 {
  /// The current wall-clock time in milliseconds since the epoch (`clock_gettime(CLOCK_REALTIME)`).
  public static func currentMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
  }

  /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for a time in milliseconds since the epoch (years 0...9999).
  public static func format(milliseconds: Int64) -> String {
    let seconds = milliseconds.floorDivided(by: 1000)
    let millis = Int(milliseconds - seconds * 1000)
    let days = seconds.floorDivided(by: 86_400)
    let secondOfDay = Int(seconds - days * 86_400)
    let (year, month, day) = civilDate(daysSince1970: days)
    var text = ""
    text.reserveCapacity(24)
    text += pad(Int(year), 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    text += "T" + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
    text += "." + pad(millis, 3) + "Z"
    return text
  }

  /// The current time formatted: `format(milliseconds: currentMilliseconds())`.
  public static func now() -> String { format(milliseconds: currentMilliseconds()) }

  /// Parses the forms `Date.parse` accepts in ISO style; nil for anything else.
  ///
  /// `YYYY-MM-DD` (midnight UTC), `YYYY-MM-DDTHH:MM`, `...:SS`, `...:SS.fff` (any number of
  /// fraction digits, truncated to milliseconds), each followed by `Z` or an offset
  /// `+HH:MM` / `+HHMM` / `+HH`. A date-time without a zone is local time, as in JavaScript.
  /// Calendar fields are checked (no February 30th); a leap second is refused.
  public static func parse(_ text: String) -> Int64? {
    var scanner = Scanner(Array(text.utf8))
    guard let year = scanner.digits(4), scanner.take(0x2D), let month = scanner.digits(2), scanner.take(0x2D),
      let day = scanner.digits(2), (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
    else { return nil }
    let days = daysSince1970(year: Int64(year), month: month, day: day)
    if scanner.atEnd { return days * 86_400_000 }
    guard scanner.take(0x54) || scanner.take(0x74) || scanner.take(0x20) else { return nil }
    guard let hour = scanner.digits(2), scanner.take(0x3A), let minute = scanner.digits(2) else { return nil }
    var second = 0
    var millis = 0
    if scanner.take(0x3A) {
      guard let s = scanner.digits(2) else { return nil }
      second = s
      if scanner.take(0x2E) || scanner.take(0x2C) {
        var count = 0
        while let digit = scanner.digit() {
          if count < 3 { millis = millis * 10 + digit }
          count += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { millis *= 10 }
      }
    }
    guard hour < 24 || (hour == 24 && minute == 0 && second == 0 && millis == 0), minute < 60, second < 60 else {
      return nil
    }
    let wall = (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + Int64(millis)
    if scanner.atEnd { return localToUTC(wall) }
    if scanner.take(0x5A) || scanner.take(0x7A) { return scanner.atEnd ? wall : nil }
    let sign: Int64
    if scanner.take(0x2B) { sign = 1 } else if scanner.take(0x2D) { sign = -1 } else { return nil }
    guard let offsetHours = scanner.digits(2), offsetHours < 24 else { return nil }
    var offsetMinutes = 0
    if !scanner.atEnd {
      _ = scanner.take(0x3A)
      guard let m = scanner.digits(2), m < 60 else { return nil }
      offsetMinutes = m
    }
    guard scanner.atEnd else { return nil }
    return wall - sign * Int64(offsetHours * 60 + offsetMinutes) * 60_000
  }

  /// Whole days from `start` to `end` (both in milliseconds), rounded down; negative when `end` is earlier.
  public static func wholeDays(from start: Int64, to end: Int64) -> Int {
    Int((end - start).floorDivided(by: 86_400_000))
  }

  // MARK: Calendar arithmetic (proleptic Gregorian, after Howard Hinnant's `days_from_civil`).

  static func daysSince1970(year: Int64, month: Int, day: Int) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = y.floorDivided(by: 400)
    let yearOfEra = y - era * 400
    let m = Int64(month)
    let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int, day: Int) {
    let z = days + 719_468
    let era = z.floorDivided(by: 146_097)
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
    let month = Int(mp < 10 ? mp + 3 : mp - 9)
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Interprets a wall-clock time (in milliseconds, as if UTC) in the local time zone (`mktime`).
  static func localToUTC(_ wall: Int64) -> Int64 {
    let seconds = wall.floorDivided(by: 1000)
    var utc = time_t(seconds)
    var fields = tm()
    gmtime_r(&utc, &fields)
    fields.tm_isdst = -1
    let local = mktime(&fields)
    guard local != -1 else { return wall }
    return Int64(local) * 1000 + (wall - seconds * 1000)
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
  }

  /// Reads ASCII digits and separators from UTF-8 bytes.
  struct Scanner {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
    var atEnd: Bool { index == bytes.count }
    mutating func take(_ byte: UInt8) -> Bool {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
      return true
    }
    mutating func digit() -> Int? {
      guard index < bytes.count, (0x30...0x39).contains(bytes[index]) else { return nil }
      index += 1
      return Int(bytes[index - 1] - 0x30)
    }
    mutating func digits(_ count: Int) -> Int? {
      var value = 0
      for _ in 0..<count {
        guard let d = digit() else { return nil }
        value = value * 10 + d
      }
      return value
    }
  }
}

extension Int64 {
  /// Division rounding toward negative infinity (times before 1970 stay on the right day).
  fileprivate func floorDivided(by divisor: Int64) -> Int64 {
    let q = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
  }
}
