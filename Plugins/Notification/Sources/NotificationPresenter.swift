import NBridgePlugin

/// Where notifications appear: the desktop's notification server, or stderr.
@BridgeActor
protocol NotificationPresenter: AnyObject, Sendable {
  /// Shows `notification`; throws when it could not, so the caller can fall back to stderr.
  func present(_ notification: StoredNotification) async throws
  /// Takes a notification off the screen, returning once the server answered; false when it is not showing.
  func dismiss(id: String) async -> Bool
}

/// What a presenter reports back: clicks and closes, by the app's ids.
struct PresenterEvents {
  /// A click on the notification (`default`) or on one of its buttons.
  var action: @BridgeActor (ActionEvent) -> Void
  /// The notification left the screen.
  var closed: @BridgeActor (ClosedEvent) -> Void
}
