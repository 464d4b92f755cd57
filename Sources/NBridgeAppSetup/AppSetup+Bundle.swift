import NBridgePlugin

extension AppSetup {
  /// The fields of `bundle` in `nbridge.json`.
  static let bundleFields: Set<String> = ["command", "icon", "categories", "license", "homepage", "maintainer"]

  /// `description`: one line of text.
  static func descriptionLine(_ value: JSONValue?, path: String) throws(Problem) -> String? {
    guard let value else { return nil }
    guard case .string(let text) = value, !text.isEmpty,
      text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f })
    else {
      throw Problem(description: "\(path): field \"description\" must be one line of text")
    }
    return text
  }

  /// `bundle`: `{command, icon, categories, license, homepage, maintainer}`, each optional; their
  /// shapes are checked here, what a package needs of them when `nbridge bundle` runs.
  static func bundleSettings(_ value: JSONValue?, path: String) throws(Problem) -> BundleSettings? {
    guard let fields = try section("bundle", value, allowed: bundleFields, path: path) else { return nil }
    func text(_ key: String, _ rule: String, _ valid: (String) -> Bool) throws(Problem) -> String? {
      guard let value = fields[key] else { return nil }
      guard case .string(let s) = value, valid(s) else {
        throw Problem(description: "\(path): field \"bundle.\(key)\" must be \(rule), got \(value.jsonText)")
      }
      return s
    }
    var settings = BundleSettings()
    settings.command = try text(
      "command", "a command name (a-z, 0-9, then also '+', '-', '.'; 2 or more)", isCommandName)
    settings.icon = try text("icon", "a .png or .svg file inside the app's folder, such as \"icon.svg\"", isIconPath)
    settings.license = try text("license", "an SPDX license expression such as \"MIT\"", isLine)
    settings.homepage = try text("homepage", "an http:// or https:// URL") {
      ($0.hasPrefix("https://") || $0.hasPrefix("http://")) && !$0.contains(" ") && isLine($0)
    }
    settings.maintainer = try text("maintainer", "\"Name <email>\"", isMaintainer)
    if let categories = fields["categories"] {
      guard case .array(let items) = categories else {
        throw Problem(
          description: "\(path): field \"bundle.categories\" must be an array of menu categories such as \"Utility\"")
      }
      var list: [String] = []
      for (index, item) in items.enumerated() {
        guard case .string(let s) = item, let first = s.unicodeScalars.first, ("A"..."Z").contains(first),
          s.unicodeScalars.allSatisfy({
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-")
          })
        else {
          throw Problem(
            description:
              "\(path): bundle.categories[\(index)] must be a menu category such as \"Utility\", got \(item.jsonText)")
        }
        list.append(s)
      }
      settings.categories = list
    }
    return settings
  }

  /// Whether `name` may be a command and a Debian package's name: lowercase letters and digits,
  /// then also `+`, `-` and `.`, two or more.
  package static func isCommandName(_ name: String) -> Bool {
    let bytes = Array(name.utf8)
    func alphanumeric(_ b: UInt8) -> Bool { (0x61...0x7a).contains(b) || (0x30...0x39).contains(b) }
    guard bytes.count >= 2, alphanumeric(bytes[0]) else { return false }
    return bytes.allSatisfy {
      alphanumeric($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  /// A relative path inside the app's folder, ending in `.png` or `.svg`.
  static func isIconPath(_ path: String) -> Bool {
    let lower = path.lowercased()
    guard lower.hasSuffix(".png") || lower.hasSuffix(".svg"), !path.hasPrefix("/"), isLine(path) else { return false }
    return !path.split(separator: "/").contains("..")
  }

  /// One line: no control characters.
  static func isLine(_ text: String) -> Bool {
    !text.isEmpty && text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7f }
  }

  /// `Name <user@host>`.
  static func isMaintainer(_ text: String) -> Bool {
    guard isLine(text), text.hasSuffix(">"), let open = text.firstIndex(of: "<") else { return false }
    let name = text[..<open].trimmingCharacters(in: " ")
    let address = text[text.index(after: open)..<text.index(before: text.endIndex)]
    let parts = address.split(separator: "@", omittingEmptySubsequences: false)
    return !name.isEmpty && parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
      && !address.contains(" ") && !address.contains("<")
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Character) -> Substring {
    var s = self
    while s.first == set { s = s.dropFirst() }
    while s.last == set { s = s.dropLast() }
    return s
  }
}
