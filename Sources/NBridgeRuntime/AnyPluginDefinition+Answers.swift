import NBridgePlugin

extension AnyPluginDefinition {
  /// `{event: action}` for the events whose listeners answer through an action (the prelude's `answers`).
  var eventAnswers: JSONValue {
    var answers = JSONObject()
    for event in events {
      if let action = event.answeredBy { answers[event.name] = .string(action) }
    }
    return .object(answers)
  }
}
