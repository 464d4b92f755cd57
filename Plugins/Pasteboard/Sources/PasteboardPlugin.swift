import NBridgePlugin

/// `nbridge.pasteboard`: the desktop clipboard (or nbridge's shared one), named pasteboards
/// shared by the user's nbridge apps, and `change` events.
@BridgeActor
public final class PasteboardPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "pasteboard")
  /// The service's actions and its `change` event.
  public nonisolated static let definition = PluginDefinition<PasteboardPlugin>(
    declaration,
    summary: "The clipboard (X11, Wayland or nbridge's shared store), named pasteboards and change events.",
    actions: [
      Action("getString", result: Shape.string.orNull, summary: "The pasteboard's text, or null.")
      {
        (plugin, options: PasteboardOptions, _) in try await plugin.pasteboards.string(options.name)
      },
      Action(
        "setString",
        summary: "Puts text (at most 16 MiB of UTF-8) on the pasteboard."
      ) { (plugin, options: SetStringOptions, _) in
        try await plugin.pasteboards.setString(options.string, options.name)
        return JSONValue.null
      },
      Action("hasString", result: .boolean, summary: "Whether the pasteboard holds text.") {
        (plugin, options: PasteboardOptions, _) in try await plugin.pasteboards.hasString(options.name)
      },
      Action("clear", summary: "Empties the pasteboard.") {
        (plugin, options: PasteboardOptions, _) in
        try await plugin.pasteboards.clear(options.name)
        return JSONValue.null
      },
      Action(
        "changeCount", result: .integer,
        summary:
          "Up by one per change: across processes for shared pasteboards, as seen by this process on a desktop clipboard."
      ) { (plugin, options: PasteboardOptions, _) in try plugin.pasteboards.changeCount(options.name) },
      Action(
        "create",
        summary: "Creates a named pasteboard shared by the user's nbridge apps (an existing one is kept)."
      ) { (plugin, options: NamedPasteboardOptions, _) in
        try plugin.pasteboards.create(options.name)
        return JSONValue.null
      },
      Action("remove", summary: "Removes a named pasteboard.") {
        (plugin, options: NamedPasteboardOptions, _) in
        try plugin.pasteboards.remove(options.name)
        return JSONValue.null
      },
    ],
    events: [
      EventSpec(
        "change",
        payload: .named("PasteboardChange", .fields(["name": Shape.string.orNull, "changeCount": .integer])),
        summary: "A pasteboard changed, in this process or another (name is null for the general pasteboard).",
        keepsAlive: true, coalescesWhileSuspended: true)
    ])

  private nonisolated static let nameOption = Shape.fields(["name?": .string])

  /// The logic the actions call.
  let pasteboards: Pasteboards

  /// Creates the plugin; the clipboard is not touched until the first call.
  public init(context: PluginContext) {
    pasteboards = Pasteboards(context: context) { change in context.emit("change", change) }
  }

  /// Starts or stops watching when the first `change` listener comes or the last goes.
  public func listenersChanged(event: String, count: Int) {
    if event == "change" { pasteboards.observe(count > 0) }
  }

  /// Stops watchers and leaves the display.
  public func stop() async { pasteboards.close() }
}
