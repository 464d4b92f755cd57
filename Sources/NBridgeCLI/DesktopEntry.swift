import NBridgeAppSetup
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The desktop entry `nbridge install` writes: what `xdg-open` and the desktop's URL handlers
/// read to hand an app its scheme's URLs. Every value goes through the Desktop Entry
/// Specification's rules on Unicode scalars (not Swift `Character`s, where `"\r\n"` is one).
enum DesktopEntry {
  /// Why an entry cannot be written: one line.
  struct Refusal: Error, CustomStringConvertible {
    /// What is wrong.
    var description: String
  }

  /// `$XDG_DATA_HOME/applications/<id>.desktop`.
  static func path(_ id: String) -> String { XDGPaths.applications + "/" + id + ".desktop" }

  /// The file's text. `Exec` is unquoted: xdg-open's generic parser (xdg-utils 1.1) passes
  /// quotes on as part of the path, so a path that would need them is refused, as are an id
  /// or a scheme that could end the line or the list they stand in.
  static func text(for app: InstalledApp, nbridge: String) throws(Refusal) -> String {
    if let problem = AppID.problem(app.id) {
      throw Refusal(description: "the app id \(JSONValue.string(app.id).jsonText) \(problem)")
    }
    guard isPlainExecArgument(nbridge) else {
      throw Refusal(
        description:
          "this nbridge lives at \(JSONValue.string(nbridge).jsonText), a path a desktop file's Exec cannot hold unquoted; install it elsewhere"
      )
    }
    for scheme in app.urlSchemes where !AppSetup.isScheme(scheme) {
      throw Refusal(description: "\(JSONValue.string(scheme).jsonText) is not a lowercase URL scheme")
    }
    var lines = [
      "[Desktop Entry]",
      "Type=Application",
      "Version=1.0",
      "Name=" + escaped(app.name),
      "Comment=" + escaped("nbridge app " + app.id),
      "Exec=\(nbridge) open --app=\(app.id) %u",
    ]
    if !app.urlSchemes.isEmpty {
      lines.append("MimeType=" + app.urlSchemes.map { "x-scheme-handler/\($0);" }.joined())
    }
    lines += ["NoDisplay=true", "Terminal=false"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// A `string` or `localestring` value on one line, by the specification's escapes: `\\`, `\n`,
  /// `\r`, `\t`, and `\s` for a leading space (readers trim it otherwise). A control character
  /// those cannot write (NUL, ESC, DEL, C1...) or a line or paragraph separator becomes U+FFFD.
  static func escaped(_ text: String) -> String {
    DesktopEntryValue.escaped(text, unwritable: "\u{FFFD}") ?? ""
  }

  /// Whether `text` can stand unquoted in `Exec`: ASCII letters, digits and `/._+,:@-`, and
  /// non-ASCII scalars that are not control, format or space characters. Everything else is a
  /// reserved character (space, quotes, `\`, `$`, `;`, `%`, `=`...) or could end the line.
  static func isPlainExecArgument(_ text: String) -> Bool {
    !text.isEmpty
      && text.unicodeScalars.allSatisfy { scalar in
        if scalar.isASCII {
          return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || "/._+,:@-".unicodeScalars.contains(scalar)
        }
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned:
          return false
        default: return true
        }
      }
  }

  /// Runs `update-desktop-database` on the applications folder when it is installed.
  static func updateDatabase() {
    let environment = ProcessEnvironment.current
    guard Spawn.locate("update-desktop-database", path: environment["PATH"] ?? "/usr/bin:/bin") != nil else { return }
    _ = Spawn.run(["update-desktop-database", "-q", XDGPaths.applications], environment: environment, output: .discard)
  }
}
