import NBridgePlugin

extension DialogPlugin {
  nonisolated static let filterShape = Shape.named(
    "DialogFilter", .fields(["name": .string, "extensions": .array(.string)]))
  nonisolated static let kindShape = Shape.oneOf([.literal("info"), .literal("warning"), .literal("error")])

  nonisolated static let actions: [Action<DialogPlugin>] = [
    Action(
      "open",
      options: .fields([
        "multiple?": .boolean, "directory?": .boolean, "filters?": .array(filterShape), "title?": .string,
        "defaultPath?": .string,
      ]),
      result: .oneOf([.string, .array(.string), .null]),
      summary: "Asks for files (or folders) to open: a path, paths when multiple, null when cancelled."
    ) { (plugin, options: OpenOptions, _, reply: Reply<JSONValue>) in
      let multiple = options.request.multiple
      try plugin.chooseFiles(options.request, action: "open", fits: { fitsPaths($0, multiple: multiple) }) {
        reply.settle($0.mapError { $0 })
      }
    },
    Action(
      "save", options: .fields(["defaultPath?": .string, "filters?": .array(filterShape), "title?": .string]),
      result: .oneOf([.string, .null]),
      summary: "Asks for a file to save to (replacing one is confirmed): its path, null when cancelled."
    ) { (plugin, options: SaveOptions, _, reply: Reply<JSONValue>) in
      try plugin.chooseFiles(options.request, action: "save", fits: { fitsPaths($0, multiple: false) }) {
        reply.settle($0.mapError { $0 })
      }
    },
    Action(
      "message",
      options: .fields(["message": .string, "title?": .string, "kind?": kindShape, "buttons?": .array(.string)]),
      result: .oneOf([.string, .null]),
      summary: "Shows a message with buttons (default OK): the label of the one pressed, null when closed."
    ) { (plugin, options: MessageOptions, _, reply: Reply<JSONValue>) in
      let buttons = options.request.buttons
      try plugin.showMessage(
        options.request, action: "message", fits: { $0 == .null || buttons.contains($0.stringValue ?? "\u{0}") },
        { reply.resolve($0) }, answer: { button in button.map { .string(buttons[$0]) } ?? .null })
    },
    Action(
      "confirm",
      options: .fields([
        "message": .string, "title?": .string, "kind?": kindShape, "okLabel?": .string, "cancelLabel?": .string,
      ]),
      result: .boolean,
      summary: "Asks a yes/no question: true for OK, false for Cancel or when closed."
    ) { (plugin, options: ConfirmOptions, _, reply: Reply<JSONValue>) in
      try plugin.showMessage(
        options.request, action: "confirm", fits: { $0.boolValue != nil },
        { reply.resolve($0) }, answer: { .bool($0 == 1) })
    },
    Action(
      "simulate", result: .integer,
      summary:
        "Queues what the next dialogs answer (nbridge test, or NBRIDGE_DIALOG=simulate); the answers now queued."
    ) { (plugin, options: SimulateOptions, _) in
      guard let queue = plugin.simulated else {
        throw BridgeError.unavailable(
          "this run shows real dialogs; simulate works under nbridge test or with NBRIDGE_DIALOG=simulate")
      }
      plugin.simulated = queue + options.answers
      return queue.count + options.answers.count
    },
  ]
}

/// Whether a simulated answer fits a file chooser: null, an absolute path, or (when `multiple`)
/// an array of them.
func fitsPaths(_ value: JSONValue, multiple: Bool) -> Bool {
  switch value {
  case .null: return true
  case .string(let path): return !multiple && path.hasPrefix("/")
  case .array(let list): return multiple && !list.isEmpty && list.allSatisfy { $0.stringValue?.hasPrefix("/") == true }
  default: return false
  }
}
