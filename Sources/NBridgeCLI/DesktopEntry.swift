import NBridgeRuntime
import NBridgeSystem

/// The desktop entry `nbridge install` writes: what `xdg-open` and the desktop's URL handlers
/// read to hand an app its scheme's URLs.
enum DesktopEntry {
  /// `$XDG_DATA_HOME/applications/<id>.desktop`.
  static func path(_ id: String) -> String { XDGPaths.applications + "/" + id + ".desktop" }

  /// The file's text. `Exec` is unquoted: xdg-open's generic parser (xdg-utils 1.1) passes
  /// quotes on as part of the path, so the install refuses a path that would need them.
  static func text(for app: InstalledApp, nbridge: String) -> String {
    var lines = [
      "[Desktop Entry]",
      "Type=Application",
      "Version=1.0",
      "Name=" + escaped(app.name),
      "Comment=nbridge app " + app.id,
      "Exec=\(nbridge) open --app=\(app.id) %u",
    ]
    if !app.urlSchemes.isEmpty {
      lines.append("MimeType=" + app.urlSchemes.map { "x-scheme-handler/\($0);" }.joined())
    }
    lines += ["NoDisplay=true", "Terminal=false"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// A value for a desktop entry: one line, backslashes escaped.
  static func escaped(_ text: String) -> String {
    text.replacing("\\", with: "\\\\").replacing("\n", with: "\\n").replacing("\t", with: "\\t").replacing("\r", with: "\\r")
  }

  /// Runs `update-desktop-database` on the applications folder when it is installed.
  static func updateDatabase() {
    let environment = ProcessEnvironment.current
    guard Spawn.locate("update-desktop-database", path: environment["PATH"] ?? "/usr/bin:/bin") != nil else { return }
    _ = Spawn.run(["update-desktop-database", "-q", XDGPaths.applications], environment: environment, output: .discard)
  }
}
