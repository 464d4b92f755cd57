/// What the autostart entry runs: `<nbridge> run --background [--data-dir DIR] <entry>` for a
/// headless app, `<nbridge> app [--data-dir DIR] <page>` for a page app (a window has no hidden start).
struct AutostartCommand: Equatable, Sendable {
  /// The variable a run started by the CLI carries its absolute entry script in.
  static let entryVariable = "NBRIDGE_RUN_ENTRY"
  /// The variable `nbridge app` carries its absolute page in.
  static let pageVariable = "NBRIDGE_RUN_PAGE"
  /// Set by the CLI to the data dir when `--data-dir`/`NBRIDGE_DATA_DIR` chose one.
  static let dataDirectoryVariable = "NBRIDGE_RUN_DATA_DIR"

  /// The program and its arguments.
  var arguments: [String]

  /// The command for this run, run by the `nbridge` at `executable`; nil when the run was not
  /// started from an app's files (`nbridge test`, a plugin's tests).
  init?(executable: String, environment: [String: String]) {
    let dataDirectory = environment[Self.dataDirectoryVariable].flatMap { $0.isEmpty ? nil : $0 }
    let options = dataDirectory.map { ["--data-dir", $0] } ?? []
    if let page = environment[Self.pageVariable], !page.isEmpty {
      arguments = [executable, "app"] + options + [page]
    } else if let entry = environment[Self.entryVariable], !entry.isEmpty {
      arguments = [executable, "run", "--background"] + options + [entry]
    } else {
      return nil
    }
  }
}
