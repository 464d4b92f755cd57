import NBridgePlugin

/// The manifest's window fields for pages that are not the app's own: `remote` and `pageProtocol`.
extension AppSetup {
  static let remoteFields: Set<String> = ["origin", "permissions"]

  /// `remote`: `[{origin, permissions}]`, each origin `https://host[:port]` (given once), each
  /// permission among the app's `permissions` when it has them (names are checked against the
  /// registry with the app's own, in `checkPermissions`).
  static func remoteOrigins(_ value: JSONValue?, permissions: [String]?, path: String) throws(Problem)
    -> [RemoteOrigin]?
  {
    guard let value else { return nil }
    guard case .array(let items) = value else {
      throw Problem(description: "\(path): field \"remote\" must be an array of {origin, permissions}")
    }
    var list: [RemoteOrigin] = []
    for (index, item) in items.enumerated() {
      let field = "remote[\(index)]"
      guard let fields = try section(field, item, allowed: remoteFields, path: path) else { continue }
      guard case .string(let origin)? = fields["origin"], let lowered = httpsOrigin(origin) else {
        throw Problem(
          description:
            "\(path): field \"\(field).origin\" must be an https origin such as \"https://example.com\", got \(fields["origin"]?.jsonText ?? "nothing") (http is not offered the bridge)"
        )
      }
      if list.contains(where: { $0.origin == lowered }) {
        throw Problem(description: "\(path): field \"\(field).origin\": \"\(lowered)\" is listed twice")
      }
      guard case .array(let names)? = fields["permissions"] else {
        throw Problem(description: "\(path): field \"\(field).permissions\" must be an array of service names")
      }
      var granted: [String] = []
      for (position, name) in names.enumerated() {
        guard case .string(let name) = name else {
          throw Problem(description: "\(path): field \"\(field).permissions\" must be an array of service names")
        }
        if let permissions, !permissions.contains(name) {
          throw Problem(
            description:
              "\(path): \(field).permissions[\(position)]: \(JSONValue.string(name).jsonText) is not among the app's \"permissions\" (a remote origin gets a subset of them)"
          )
        }
        granted.append(name)
      }
      list.append(RemoteOrigin(origin: lowered, permissions: granted))
    }
    return list
  }

  /// `https://host[:port]` lowercased, or nil for anything else (a path, userinfo, another scheme).
  static func httpsOrigin(_ text: String) -> String? {
    let lowered = text.lowercased()
    guard lowered.hasPrefix("https://") else { return nil }
    let authority = lowered.dropFirst(8)
    guard !authority.isEmpty, !authority.contains(where: { "/?#@\\ ".contains($0) }) else { return nil }
    if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
      let port = authority[authority.index(after: colon)...]
      guard colon != authority.startIndex, let number = Int(port), (1...65535).contains(number),
        port.allSatisfy(\.isASCII)
      else { return nil }
    }
    return lowered
  }

  /// `pageProtocol`: `"wkbridgekit"` or `"nbridgekit"`.
  static func pageProtocol(_ value: JSONValue?, path: String) throws(Problem) -> PageProtocol? {
    guard let value else { return nil }
    guard case .string(let name) = value, let parsed = PageProtocol(rawValue: name) else {
      let names = PageProtocol.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
      throw Problem(description: "\(path): field \"pageProtocol\" must be \(names), got \(value.jsonText)")
    }
    return parsed
  }
}
