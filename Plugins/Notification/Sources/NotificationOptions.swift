import NBridgePlugin

/// The most action buttons one notification may carry (desktops show few; GNOME shows three).
let maximumActions = 8
/// The limits on what a notification carries, in bytes of UTF-8 (`data`: of its JSON text). Each
/// is kept in the data dir and sent to the desktop, so none may be unbounded.
enum NotificationLimits {
  static let titleBytes = 1024
  static let bodyBytes = 16 * 1024
  static let idBytes = 256
  static let dataBytes = 64 * 1024
  static let actionIDBytes = 256
  static let actionTitleBytes = 256
  /// The most schedules pending at once, iOS's 64 (each is kept in one file rewritten on every
  /// change); replacing one by its id does not count.
  static let pending = 64
}
/// The shortest repeat interval, so a typo cannot flood the desktop and the data dir.
let minimumInterval: Int64 = 100

/// `show({title, body, id?, data?, actions?})`.
struct ShowOptions: Decodable, Sendable {
  var title: String
  var body: String
  var id: String?
  var data: JSONValue?
  var actions: [NotificationButton]?

  /// The notification to deliver now, or `invalid_parameter` naming the field.
  func validated(now: Int64, makeID: () -> String) throws -> StoredNotification {
    try StoredNotification(
      id: validID(id, makeID), title: validTitle(title), body: validBody(body), data: validData(data),
      actions: validActions(actions), at: now)
  }
}

/// `schedule({title, body, at? | after?, every?, id?, data?, actions?})`.
struct ScheduleOptions: Decodable, Sendable {
  var title: String
  var body: String
  var id: String?
  var data: JSONValue?
  var actions: [NotificationButton]?
  /// An ISO 8601 time or epoch milliseconds.
  var at: JSONValue?
  /// Milliseconds from now.
  var after: Double?
  /// Repeat interval in milliseconds.
  var every: Double?

  /// The pending notification, or `invalid_parameter` naming the field.
  func validated(now: Int64, makeID: () -> String) throws -> StoredNotification {
    let interval = try every.map { try milliseconds($0, field: "every", minimum: minimumInterval) }
    let due: Int64
    switch (at.flatMap { $0.isNull ? nil : $0 }, after) {
    case (.some, .some):
      throw BridgeError.invalidParameter("after", "cannot be given together with \"at\"")
    case (.some(let at), nil):
      due = try time(at)
    case (nil, .some(let after)):
      due = now + (try milliseconds(after, field: "after", minimum: 0))
    case (nil, nil):
      guard let interval else {
        throw BridgeError.invalidParameter("at", "is required (or \"after\", or \"every\" alone)")
      }
      due = now + interval
    }
    return try StoredNotification(
      id: validID(id, makeID), title: validTitle(title), body: validBody(body), data: validData(data),
      actions: validActions(actions), at: due, every: interval)
  }
}

/// `cancel({id})`.
struct CancelOptions: Decodable, Sendable {
  var id: String
}

private func validTitle(_ title: String) throws -> String {
  guard !title.isEmpty else { throw BridgeError.invalidParameter("title", "must be a non-empty string") }
  return try BridgeLimits.text(title, field: "title", maxBytes: NotificationLimits.titleBytes)
}

private func validBody(_ body: String) throws -> String {
  try BridgeLimits.text(body, field: "body", maxBytes: NotificationLimits.bodyBytes)
}

private func validData(_ data: JSONValue?) throws -> JSONValue {
  guard let data else { return .null }
  _ = try BridgeLimits.jsonText(data, field: "data", maxBytes: NotificationLimits.dataBytes)
  return data
}

private func validID(_ id: String?, _ makeID: () -> String) throws -> String {
  guard let id else { return makeID() }
  guard !id.isEmpty else { throw BridgeError.invalidParameter("id", "must be a non-empty string") }
  return try BridgeLimits.text(id, field: "id", maxBytes: NotificationLimits.idBytes)
}

private func validActions(_ actions: [NotificationButton]?) throws -> [NotificationButton] {
  guard let actions else { return [] }
  guard actions.count <= maximumActions else {
    throw BridgeError.invalidParameter("actions", "may hold at most \(maximumActions) actions (got \(actions.count))")
  }
  var seen: Set<String> = []
  for (index, action) in actions.enumerated() {
    guard !action.id.isEmpty, action.id != "default" else {
      throw BridgeError.invalidParameter("actions[\(index)].id", "must be a non-empty string other than 'default'")
    }
    guard seen.insert(action.id).inserted else {
      throw BridgeError.invalidParameter("actions[\(index)].id", "repeats \"\(action.id)\"")
    }
    guard !action.title.isEmpty else {
      throw BridgeError.invalidParameter("actions[\(index)].title", "must be a non-empty string")
    }
    _ = try BridgeLimits.text(action.id, field: "actions[\(index)].id", maxBytes: NotificationLimits.actionIDBytes)
    _ = try BridgeLimits.text(
      action.title, field: "actions[\(index)].title", maxBytes: NotificationLimits.actionTitleBytes)
  }
  return actions
}

/// Whole milliseconds up to 2^53 (what a JS number holds exactly), at least `minimum`.
private func milliseconds(_ value: Double, field: String, minimum: Int64) throws -> Int64 {
  guard value >= Double(minimum), value <= 9_007_199_254_740_991 else {
    throw BridgeError.invalidParameter(field, "must be a number of milliseconds, at least \(minimum) (got \(value))")
  }
  return Int64(value.rounded())
}

/// `at` as epoch milliseconds: an ISO 8601 string or a number, within years 0 to 9999.
private func time(_ value: JSONValue) throws -> Int64 {
  let range: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999
  switch value {
  case .string(let text):
    guard let ms = ISO8601.parse(text), range.contains(ms) else {
      throw BridgeError.invalidParameter(
        "at", "must be an ISO 8601 time such as 2030-01-31T09:00:00Z (got \(QuotedValue.text(text)))")
    }
    return ms
  case .number(let number):
    guard number.isFinite, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
      throw BridgeError.invalidParameter("at", "must be epoch milliseconds within years 0 to 9999 (got \(number))")
    }
    return Int64(number.rounded())
  default:
    throw BridgeError.invalidParameter("at", "must be an ISO 8601 string or epoch milliseconds (got \(value.kindName))")
  }
}
