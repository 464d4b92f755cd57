import NBridgeAppSetup
import NBridgePlugin
import NBridgeRuntime

extension DesktopEntry {
  /// The desktop entry a bundled app installs as `/usr/share/applications/<id>.desktop`: the
  /// same writer's escaping as `nbridge install`'s, `Exec=<command> %u` so a URL reaches the app,
  /// and the window's class so the desktop matches the window to the entry.
  static func packagedText(for app: BundleApp) throws(Refusal) -> String {
    if let problem = AppID.problem(app.id) {
      throw Refusal(description: "the app id \(JSONValue.string(app.id).jsonText) \(problem)")
    }
    guard isPlainExecArgument(app.command) else {
      throw Refusal(description: "the command \(JSONValue.string(app.command).jsonText) cannot stand unquoted in Exec")
    }
    for scheme in app.manifest.urlSchemes ?? [] where !AppSetup.isScheme(scheme) {
      throw Refusal(description: "\(JSONValue.string(scheme).jsonText) is not a lowercase URL scheme")
    }
    var lines = [
      "[Desktop Entry]",
      "Type=Application",
      "Version=1.4",
      "Name=" + escaped(app.manifest.name),
      "Comment=" + escaped(app.summary),
      "Exec=\(app.command) %u",
    ]
    if app.icon != nil { lines.append("Icon=" + app.id) }
    lines.append("Terminal=false")
    lines.append("Categories=" + app.categories.map { escaped($0) + ";" }.joined())
    if let schemes = app.manifest.urlSchemes, !schemes.isEmpty {
      lines.append("MimeType=" + schemes.map { "x-scheme-handler/\($0);" }.joined())
    }
    if app.isPage {
      lines.append("StartupWMClass=" + BundleLayout.windowClass(command: app.command))
    } else {
      lines.append("NoDisplay=true")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}
