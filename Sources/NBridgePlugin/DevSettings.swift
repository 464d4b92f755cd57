/// `dev` in `nbridge.json`: the bundler's dev server `nbridge app --dev` loads instead of the
/// app's folder. Only the runtime reads it (plugins never see development settings).
package struct DevSettings: Sendable, Hashable, Codable {
  /// The dev server's page, on a loopback host (`http://localhost:5173`).
  package var url: String?
  /// A shell command that starts the dev server (`npm run dev`), run from the manifest's folder's
  /// parent project (the folder holding `package.json`) and stopped when the app ends.
  package var command: String?

  /// Settings; nil fields are unset.
  package init(url: String? = nil, command: String? = nil) {
    self.url = url
    self.command = command
  }
}
