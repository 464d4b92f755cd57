import NBridgePlugin
import NBridgeRuntime

/// What `nbridge plugins` prints: every service with its actions, events and permission.
package enum PluginCatalog {
  /// The catalogue as JSON (`nbridge plugins --json`).
  package static func json(_ registry: PluginRegistry) -> JSONValue {
    .array(
      registry.definitions.map { definition in
        var object: JSONValue = [
          "service": .string(definition.service),
          "permission": .string(definition.permission),
          "summary": .string(definition.summary),
        ]
        let actions: [JSONValue] = definition.actions.map { action in
          var a: JSONValue = [
            "name": .string(action.name),
            "summary": .string(action.summary),
            "options": action.options.jsonDescription,
            "result": action.result.jsonDescription,
          ]
          if case .object(var o) = a {
            if let streams = action.streams { o["streams"] = streams.jsonDescription }
            if let limit = action.timeLimit { o["timeLimit"] = .number(limit) }
            a = .object(o)
          }
          return a
        }
        let events: [JSONValue] = definition.events.map { event in
          [
            "name": .string(event.name), "summary": .string(event.summary), "payload": event.payload.jsonDescription,
            "keepsAlive": .bool(event.keepsAlive),
          ]
        }
        if case .object(var o) = object {
          o["actions"] = .array(actions)
          o["events"] = .array(events)
          object = .object(o)
        }
        return object
      })
  }

  /// The catalogue as readable text (`nbridge plugins`).
  package static func text(_ registry: PluginRegistry) -> String {
    var out = ""
    for definition in registry.definitions {
      out += "\(definition.service)  (permission: \(definition.permission))"
      if !definition.summary.isEmpty { out += " — \(definition.summary)" }
      out += "\n"
      for action in definition.actions {
        out += "  \(action.name)(\(action.options == .void ? "" : "options: " + action.options.typeScript))"
        out += " → \(action.result.typeScript)"
        if !action.summary.isEmpty { out += "\n      \(action.summary)" }
        out += "\n"
      }
      for event in definition.events {
        out += "  event '\(event.name)' → \(event.payload.typeScript)"
        if event.keepsAlive { out += "  (keeps the run alive)" }
        if !event.summary.isEmpty { out += "\n      \(event.summary)" }
        out += "\n"
      }
      out += "\n"
    }
    for permission in RuntimeConfiguration.runtimePermissions {
      out += "(runtime)  (permission: \(permission.name)) — \(permission.summary)\n"
    }
    return out
  }

  /// The catalogue as Markdown, one table per service (`nbridge plugins --markdown`); the
  /// plugin reference in docs/plugins/README.md embeds it, and a test checks the two agree.
  package static func markdown(_ registry: PluginRegistry) -> String {
    var out = ""
    for definition in registry.definitions {
      out += "#### `\(definition.service)` (permission `\(definition.permission)`)\n\n"
      if !definition.summary.isEmpty { out += "\(definition.summary)\n\n" }
      out += "| action | options | result |\n|---|---|---|\n"
      for action in definition.actions {
        let options = action.options == .void ? "—" : "`\(cell(action.options.typeScript))`"
        out += "| `\(action.name)` | \(options) | `\(cell(action.result.typeScript))` |\n"
      }
      if !definition.events.isEmpty {
        out += "\n| event | payload |\n|---|---|\n"
        for event in definition.events {
          out += "| `\(event.name)` | `\(cell(event.payload.typeScript))`\(event.keepsAlive ? " (keeps the run alive)" : "") |\n"
        }
      }
      out += "\n"
    }
    return out
  }

  private static func cell(_ text: String) -> String { text.replacingPipes() }
}

extension String {
  fileprivate func replacingPipes() -> String {
    var out = ""
    for ch in self { out += ch == "|" ? "\\|" : String(ch) }
    return out
  }
}
