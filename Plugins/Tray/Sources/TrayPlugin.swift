import NBridgePlugin

/// `nbridge.tray`: the app's icon in the desktop's tray (a StatusNotifierItem over D-Bus, its menu
/// over `com.canonical.dbusmenu`; no libappindicator), with clicks and menu picks as events.
@BridgeActor
public final class TrayPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "tray")
  /// `create`, `setIcon`, `setTooltip`, `setMenu`, `remove`; `click`, `doubleClick`, `menuItem`.
  public nonisolated static let definition = PluginDefinition<TrayPlugin>(
    declaration,
    summary: "The app's icon in the desktop's tray, with a tooltip and a menu; clicks come back as events.",
    actions: [
      Action(
        "create", options: TrayShapes.create,
        summary: "Shows the app's tray icon (or changes the one shown); unavailable when the desktop has no tray."
      ) { (plugin, options: CreateOptions, _) in
        let appearance = TrayAppearance(
          icon: try plugin.icon(options.icon),
          tooltip: try BridgeLimits.text(options.tooltip ?? "", field: "tooltip", maxBytes: TrayLimits.tooltip),
          title: try BridgeLimits.text(
            options.title ?? plugin.context.manifest.name, field: "title", maxBytes: TrayLimits.title),
          menu: try options.menu.map { value throws(BridgeError) in try TrayMenu(parsing: value) } ?? TrayMenu())
        try await plugin.service.create(appearance)
        return JSONValue.null
      },
      Action("setIcon", summary: "Changes the icon's image.") {
        (plugin, options: IconOptions, _) in
        let icon = try plugin.icon(options.icon)
        try await plugin.service.modify { $0.icon = icon }
        return JSONValue.null
      },
      Action(
        "setTooltip", summary: "Changes the text shown when the pointer rests on the icon."
      ) {
        (plugin, options: TooltipOptions, _) in
        let tooltip = try BridgeLimits.text(options.tooltip, field: "tooltip", maxBytes: TrayLimits.tooltip)
        try await plugin.service.modify { $0.tooltip = tooltip }
        return JSONValue.null
      },
      Action("setMenu", options: TrayShapes.menu, summary: "Replaces the icon's menu (an empty array takes it away).") {
        (plugin, options: MenuOptions, _) in
        let menu = try TrayMenu(parsing: options.menu)
        try await plugin.service.modify { $0.menu = menu }
        return JSONValue.null
      },
      Action("remove", summary: "Takes the icon off the desktop (none shown is fine); the run may then end.") {
        (plugin, _: NoOptions, _) in
        await plugin.service.remove()
        return JSONValue.null
      },
    ],
    events: [
      EventSpec("click", payload: TrayShapes.click, summary: "The user clicked the icon."),
      EventSpec(
        "doubleClick", payload: TrayShapes.click,
        summary: "A second click came within 400 ms of the first (after its own click event)."),
      EventSpec("menuItem", payload: TrayShapes.menuItem, summary: "The user picked an item of the icon's menu."),
    ])

  let context: PluginContext
  private lazy var service = TrayService(context: context)

  /// A plugin for the run `context` describes; nothing is connected until `create`.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// Takes the icon off the desktop at exit.
  public func stop() async {
    await service.remove()
  }

  /// The icon `value` names, a relative path read from the app's folder.
  private func icon(_ value: String) throws(BridgeError) -> TrayIcon {
    let entry =
      context.environment["NBRIDGE_RUN_PAGE"].flatMap { $0.isEmpty ? nil : $0 }
      ?? context.environment["NBRIDGE_RUN_ENTRY"] ?? ""
    let folder = entry.lastIndex(of: "/").map { String(entry[..<$0]) } ?? "."
    return try TrayIcon.parse(value, field: "icon", directory: folder.isEmpty ? "/" : folder)
  }
}
