extension AnyPluginDefinition {
  /// `{event: action}` for the events whose listeners answer through an action (the prelude's `answers`).
  package var eventAnswers: JSONValue {
    var answers = JSONObject()
    for event in events {
      if let action = event.answeredBy { answers[event.name] = .string(action) }
    }
    return .object(answers)
  }
}

extension AnyPluginDefinition {
  /// `{action: {in: [field...], out: bool}}` for the actions that take or answer `Shape.bytes`:
  /// the prelude turns those options fields from typed arrays into Base64 and that result back.
  /// Options fields count only where the action declared its options shape (a recorded one never
  /// says bytes, and recording it here would cost every start).
  package var byteActions: JSONValue {
    var table = JSONObject()
    for action in actions {
      var fields: [JSONValue] = []
      if case .object(let declared) = action.declaredOptions {
        fields = declared.filter { $0.shape == .bytes || $0.shape == .bytes.orNull }.map { .string($0.name) }
      }
      let out = action.result == .bytes || action.result == .bytes.orNull
      guard out || !fields.isEmpty else { continue }
      table[action.name] = ["in": .array(fields), "out": .bool(out)]
    }
    return .object(table)
  }
}
