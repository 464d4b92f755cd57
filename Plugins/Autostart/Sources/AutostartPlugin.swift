import NBridgePlugin
import NBridgeSystem

/// `nbridge.autostart`: whether the app starts with the user's session, through an XDG autostart
/// entry (`$XDG_CONFIG_HOME/autostart/<app id>.desktop`) that starts it in background.
@BridgeActor
public final class AutostartPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "autostart")
  /// `enable`, `disable`, `isEnabled`.
  public nonisolated static let definition = PluginDefinition<AutostartPlugin>(
    declaration,
    summary: "Starts the app with the user's session, in background, through an XDG autostart entry.",
    actions: [
      Action(
        "enable",
        summary: "Writes the app's autostart entry; unavailable when this run was not started from the app's files."
      ) { (plugin, _: NoOptions, _) in
        try plugin.enable()
        return JSONValue.null
      },
      Action("disable", summary: "Removes the app's autostart entry (nothing to remove is fine).") {
        (plugin, _: NoOptions, _) in
        try plugin.entry().remove()
        return JSONValue.null
      },
      Action("isEnabled", result: .boolean, summary: "Whether the app's autostart entry exists.") {
        (plugin, _: NoOptions, _) in
        try plugin.entry().isOurs
      },
    ])

  let context: PluginContext

  /// A plugin for the run `context` describes.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// The app's entry under the run's `XDG_CONFIG_HOME`.
  func entry() throws(BridgeError) -> AutostartEntry {
    try AutostartEntry(appID: context.manifest.id, environment: context.environment)
  }

  /// Writes the entry that starts this app as this run was started.
  func enable() throws(BridgeError) {
    let entry = try entry()
    guard let executable = Spawn.currentExecutable,
      let command = AutostartCommand(executable: executable, environment: context.environment)
    else {
      throw BridgeError.unavailable(
        "this run was not started by 'nbridge run' or 'nbridge app' from the app's files: nothing to start at login")
    }
    try entry.write(try entry.text(name: context.manifest.name, command: command.arguments))
  }
}
