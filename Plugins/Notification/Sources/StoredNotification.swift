import NBridgePlugin

/// A notification as the plugin keeps it, in memory and in the data dir: what to show and when.
struct StoredNotification: Codable, Sendable, Equatable {
  /// The app's id for it (generated when the script gave none).
  var id: String
  /// The summary line.
  var title: String
  /// The text under it.
  var body: String
  /// Whatever the script attached; `null` when nothing.
  var data: JSONValue
  /// Buttons besides the click on the notification itself.
  var actions: [NotificationButton]
  /// When it is due (pending) or was due (delivered), in epoch milliseconds.
  var at: Int64
  /// The repeat interval in milliseconds, for a repeating schedule.
  var every: Int64?
  /// When it reached the desktop or stderr, in epoch milliseconds.
  var deliveredAt: Int64?

  /// The record scripts see: times as ISO 8601, no buttons.
  var record: NotificationRecord {
    NotificationRecord(
      id: id, title: title, body: body, data: data, at: ISO8601.format(milliseconds: at), every: every,
      deliveredAt: deliveredAt.map { ISO8601.format(milliseconds: $0) })
  }
}

/// An action button: `{id, title}`; its `id` comes back as the `action` event's `actionId`.
struct NotificationButton: Codable, Sendable, Equatable {
  /// What the `action` event reports when it is pressed.
  var id: String
  /// The button's label.
  var title: String
}

/// A notification record as `getPending`, `getDelivered` and the `received` event give it.
struct NotificationRecord: Encodable, Sendable, Equatable {
  var id: String
  var title: String
  var body: String
  var data: JSONValue
  var at: String
  var every: Int64?
  var deliveredAt: String?
}
