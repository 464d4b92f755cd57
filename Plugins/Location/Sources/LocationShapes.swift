import NBridgePlugin

/// The declared shapes of the `location` service, for `nbridge plugins` and `nbridge types`.
enum LocationShapes {
  static let accuracy = Shape.named(
    "LocationAccuracy", .oneOf(Accuracy.allCases.map { .literal($0.rawValue) }))

  static let position = Shape.named(
    "LocationPosition",
    .fields([
      "latitude": .number, "longitude": .number, "accuracy": Shape.number.orNull, "altitude": Shape.number.orNull,
      "speed": Shape.number.orNull, "heading": Shape.number.orNull, "timestamp": .number,
    ]))

  static let current = Shape.fields(["timeout?": .number, "accuracy?": accuracy])

  static let watch = Shape.fields(["accuracy?": accuracy])

  static let available = Shape.fields([
    "source": .oneOf([.literal("geoclue"), .literal("portal"), .literal("simulated")])
  ])

  static let cleared = Shape.fields(["cleared": .integer])

  static let simulate = Shape.fields([
    "latitude": .number, "longitude": .number, "accuracy?": .number, "altitude?": .number, "speed?": .number,
    "heading?": .number,
  ])
}
