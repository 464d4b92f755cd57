/// The `action` event: a click on the notification (`actionId: 'default'`) or one of its buttons.
struct ActionEvent: Encodable, Sendable, Equatable {
  /// The notification's id.
  var id: String
  /// The button's id, or `default` for the notification itself.
  var actionId: String
}

/// The `closed` event: the desktop took the notification away.
struct ClosedEvent: Encodable, Sendable, Equatable {
  /// The notification's id.
  var id: String
  /// `expired`, `dismissed` (by the user), `closed` (by `cancel`) or `unknown`.
  var reason: String
}

/// Why a notification closed, from the code of the `NotificationClosed` signal.
func closeReason(code: UInt32) -> String {
  switch code {
  case 1: "expired"
  case 2: "dismissed"
  case 3: "closed"
  default: "unknown"
  }
}
