import NBridgePlugin

extension AppSetup {
  /// The most URL schemes one app may claim: each is a line in `mimeapps.list` and the desktop's
  /// database, and no app needs more.
  package static let maximumURLSchemes = 64

  /// The first key an object in `value` holds twice, named by its place (`window.title`,
  /// `imports["x"]`), or nil. Keys compare as Swift strings, as the manifest's lookups do.
  static func duplicateKey(in value: JSONValue, at field: String = "") -> String? {
    switch value {
    case .object(let object):
      var seen = Set<String>()
      for (key, member) in object {
        let name = field.isEmpty ? key : "\(field).\(key)"
        if !seen.insert(key).inserted { return name }
        if let found = duplicateKey(in: member, at: name) { return found }
      }
    case .array(let items):
      for (index, item) in items.enumerated() {
        if let found = duplicateKey(in: item, at: "\(field)[\(index)]") { return found }
      }
    default:
      break
    }
    return nil
  }

  /// Refuses text with a control character (C0, DEL, C1) or a line or paragraph separator: these
  /// fields reach one-line formats (a desktop entry, a window title, a terminal) where a line
  /// break starts a new entry. Checked on Unicode scalars, so `"\r\n"` is two characters here.
  static func checkLine(_ text: String, field: String, path: String) throws(Problem) {
    guard
      let bad = text.unicodeScalars.first(where: {
        $0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}"
      })
    else { return }
    let code = String(bad.value, radix: 16, uppercase: true)
    throw Problem(
      description:
        "\(path): field \"\(field)\" must be one line of text without control characters (found U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
    )
  }

  /// Checks the manifest's `permissions` against the `known` ones (the services a binary's
  /// registry registers, and the runtime's own: `RuntimeConfiguration.knownPermissions`): an
  /// unknown name is a problem naming it, since the app would be denied that service without a
  /// word. The same for each `remote` origin's permissions.
  package static func checkPermissions(_ manifest: AppManifest, known: Set<String>, path: String) throws(Problem) {
    var lists = [("permissions", manifest.permissions ?? [])]
    for (index, remote) in (manifest.remote ?? []).enumerated() {
      lists.append(("remote[\(index)].permissions", remote.permissions))
    }
    for (field, permissions) in lists {
      for (index, name) in permissions.enumerated() where !known.contains(name) {
        throw Problem(
          description:
            "\(path): \(field)[\(index)]: unknown permission \(JSONValue.string(name).jsonText) (known: \(known.sorted().joined(separator: ", ")))"
        )
      }
    }
  }
}
