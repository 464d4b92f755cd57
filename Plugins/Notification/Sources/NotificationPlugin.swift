import NBridgePlugin

/// `nbridge.notification`: local notifications to the desktop over D-Bus (or stderr),
/// scheduled ones that survive restarts, and clicks coming back as events.
@BridgeActor
public final class NotificationPlugin: Plugin {
  /// The service name, permission and launch, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "notification", startsAtLaunch: true)
  /// The service's actions and events.
  public nonisolated static let definition = PluginDefinition<NotificationPlugin>(
    declaration,
    summary: "Local notifications: shown now or scheduled, on the desktop or on stderr.",
    actions: [
      Action(
        "show", options: NotificationShapes.show, result: NotificationShapes.id,
        summary: "Delivers a notification now; resolves with its id."
      ) { (plugin, options: ShowOptions, _) in
        let notification = try options.validated(now: plugin.context.wallClockMilliseconds, makeID: RandomID.uuid)
        await plugin.service.show(notification)
        return ["id": .string(notification.id)] as JSONValue
      },
      Action(
        "schedule", options: NotificationShapes.schedule, result: NotificationShapes.id,
        summary: "Delivers a notification at a time, after a delay, or every interval; kept across runs."
      ) { (plugin, options: ScheduleOptions, _) in
        let notification = try options.validated(now: plugin.context.wallClockMilliseconds, makeID: RandomID.uuid)
        try await plugin.service.schedule(notification)
        return ["id": .string(notification.id)] as JSONValue
      },
      Action(
        "cancel",
        summary: "Cancels a pending schedule and takes the notification off the desktop."
      ) { (plugin, options: CancelOptions, _) in
        try await plugin.service.cancel(id: options.id)
        return JSONValue.null
      },
      Action(
        "getPending", result: .array(NotificationShapes.record), summary: "The pending schedules, soonest first."
      ) { (plugin, _: NoOptions, _) in
        plugin.service.pendingList.map(\.record)
      },
      Action(
        "getDelivered", result: .array(NotificationShapes.record),
        summary: "The delivered notifications, newest first (the last 100)."
      ) { (plugin, _: NoOptions, _) in
        plugin.service.history.map(\.record)
      },
      Action(
        "checkPermission", result: NotificationShapes.permission,
        summary: "'granted', or 'denied' when the app's permissions leave out notification.",
        answersWithoutPermission: true
      ) { (plugin, _: NoOptions, _) in
        plugin.permission
      },
      Action(
        "requestPermission", result: NotificationShapes.permission,
        summary: "The same answer as checkPermission: nothing to ask the user on Linux.",
        answersWithoutPermission: true
      ) { (plugin, _: NoOptions, _) in
        plugin.permission
      },
    ],
    events: [
      EventSpec("received", payload: NotificationShapes.record, summary: "A notification was delivered."),
      EventSpec(
        "action", payload: NotificationShapes.action,
        summary: "The user clicked the notification (actionId 'default') or one of its buttons."),
      EventSpec("closed", payload: NotificationShapes.closed, summary: "The desktop took the notification away."),
    ])

  private let context: PluginContext
  private lazy var service = NotificationService(context: context)

  /// Creates the plugin; nothing is read or connected until `start()` or the first call.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// Re-arms the schedules earlier runs left pending (when the app may use notifications).
  public func start() async throws {
    guard context.isAllowed(service: "notification") else { return }
    service.start()
  }

  /// Stops the timers and waits for the files to be written.
  public func stop() async {
    await service.stop()
  }

  private var permission: String { context.isAllowed(service: "notification") ? "granted" : "denied" }
}
