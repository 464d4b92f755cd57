import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// Headless delivery: one readable line per notification on stderr.
@BridgeActor
final class StderrNotifications: NotificationPresenter {
  private let appName: String
  private let write: (String) -> Void

  /// Writes lines to `write` (stderr by default).
  init(appName: String, write: @escaping (String) -> Void = StderrNotifications.writeToStandardError) {
    self.appName = appName
    self.write = write
  }

  func present(_ notification: StoredNotification) async throws {
    write(Self.line(for: notification, appName: appName))
  }

  func dismiss(id: String) async -> Bool { false }

  /// `notification [App] Title: body [Open | Later]`, on one line whatever the text holds.
  nonisolated static func line(for notification: StoredNotification, appName: String) -> String {
    var line = "notification [\(appName)] \(oneLine(notification.title))"
    if !notification.body.isEmpty { line += ": " + oneLine(notification.body) }
    if !notification.actions.isEmpty {
      line += " [" + notification.actions.map { oneLine($0.title) }.joined(separator: " | ") + "]"
    }
    return line
  }

  private nonisolated static func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }

  /// Writes `line` and a newline to file descriptor 2 in one `write(2)`.
  nonisolated static func writeToStandardError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
  }
}
