import Glibc
import NBridgeAppSetup
import NBridgeRuntime
import NBridgeSystem

/// How a bundled app's executable knows it is one: `nbridge bundle` installs it as
/// `/usr/lib/<id>/<command>` (the portable archive: `lib/<id>/<command>`) with the app's folder
/// `app/` and the file `bundle-mode` beside it, and `/usr/bin/<command>` is a symbolic link to it.
/// Started with no command, it opens the app as `nbridge app`/`nbridge run` would; nbridge's own
/// commands (`run FILE`, `test`, `--version`, ...) run as they are.
enum BundledLaunch {
  /// The file beside the executable that marks a bundled app; it holds `window` or `script`.
  static let markerName = "bundle-mode"

  /// How the app opens.
  enum Mode: String {
    /// A page app: `app <folder>/app`.
    case window
    /// A headless app: `run <folder>/app/index.js`.
    case script
  }

  /// `arguments` (the process's, program name first) as the CLI should parse them: unchanged
  /// unless the first argument is none of `commands` (the CLI's commands and its `--help`,
  /// `--version` flags) and this executable is a bundled
  /// app's, then the app's own launch (`app PAGE` or `run SCRIPT`, a first argument in one of the
  /// app's URL schemes as `--url`, the rest as the app's arguments after `--`).
  static func arguments(_ arguments: [String], commands: () -> Set<String>) -> [String] {
    guard let executable = Spawn.currentExecutable, let slash = executable.lastIndex(of: "/") else { return arguments }
    let folder = String(executable[..<slash])
    guard let text = POSIX.readText(folder + "/" + markerName),
      let mode = Mode(rawValue: String(text.split(separator: "\n").first ?? ""))
    else { return arguments }
    // `run` first, without the command list: building it touches every command's configuration,
    // about 2 ms of cold pages on the hot path (`<command> run FILE`).
    if let first = arguments.dropFirst().first, first == "run" || commands().contains(first) { return arguments }
    return launch(arguments, folder: folder, mode: mode)
  }

  /// The app's launch for the bundled app in `folder`.
  static func launch(_ arguments: [String], folder: String, mode: Mode) -> [String] {
    var rest = Array(arguments.dropFirst())
    var launched = [arguments.first ?? "nbridge"]
    switch mode {
    case .window: launched += ["app", folder + "/app"]
    case .script: launched += ["run", folder + "/app/index.js"]
    }
    if let first = rest.first, let scheme = AppSetup.scheme(of: first),
      let text = POSIX.readText(folder + "/app/nbridge.json"),
      let manifest = try? AppSetup.parseManifest(text, path: folder + "/app/nbridge.json"),
      manifest.urlSchemes?.contains(scheme) == true
    {
      launched.append("--url=" + first)
      rest.removeFirst()
    }
    return launched + ["--"] + rest
  }
}
