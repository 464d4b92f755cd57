import NBridgePlugin

/// The declared shapes of the `notification` service, for `nbridge plugins` and `nbridge types`.
enum NotificationShapes {
  static let button = Shape.named("NotificationAction", .fields(["id": .string, "title": .string]))

  static let record = Shape.named(
    "NotificationRecord",
    .fields([
      "id": .string, "title": .string, "body": .string, "data": .any, "at": .string, "every?": .integer,
      "deliveredAt?": .string,
    ]))

  static let show = Shape.fields([
    "title": .string, "body": .string, "id?": .string, "data?": .any, "actions?": .array(button),
  ])

  static let schedule = Shape.fields([
    "title": .string, "body": .string, "at?": .oneOf([.string, .integer]), "after?": .integer, "every?": .integer,
    "id?": .string, "data?": .any, "actions?": .array(button),
  ])

  static let id = Shape.fields(["id": .string])

  static let permission = Shape.oneOf([.literal("granted"), .literal("denied")])

  static let action = Shape.named("NotificationActionEvent", .fields(["id": .string, "actionId": .string]))

  static let closed = Shape.named(
    "NotificationClosedEvent",
    .fields([
      "id": .string,
      "reason": .oneOf([.literal("expired"), .literal("dismissed"), .literal("closed"), .literal("unknown")]),
    ]))
}
