import NBridgePlugin

extension AppSetup {
  /// The most entries `fs.scope` may list.
  package static let maximumScopeEntries = 256

  /// `fs`: `{scope: [entry...]}`; each entry an absolute path or one starting with a variable
  /// (`FileSystemSettings.problem` says which), named by its place when it is not.
  static func fileSystemSettings(_ value: JSONValue?, path: String) throws(Problem) -> FileSystemSettings? {
    guard let fields = try section("fs", value, allowed: ["scope"], path: path) else { return nil }
    guard let scope = fields["scope"] else { return FileSystemSettings() }
    guard case .array(let items) = scope else {
      throw Problem(description: "\(path): field \"fs.scope\" must be an array of paths such as \"$DOCUMENTS/Notes\"")
    }
    guard items.count <= maximumScopeEntries else {
      throw Problem(
        description: "\(path): field \"fs.scope\" lists \(items.count) paths; at most \(maximumScopeEntries) are allowed")
    }
    var entries: [String] = []
    for (index, item) in items.enumerated() {
      guard case .string(let entry) = item else {
        throw Problem(description: "\(path): fs.scope[\(index)] must be a path string, got \(item.jsonText)")
      }
      if let problem = FileSystemSettings.problem(entry) {
        throw Problem(description: "\(path): fs.scope[\(index)] \(problem), got \(item.jsonText)")
      }
      entries.append(entry)
    }
    return FileSystemSettings(scope: entries)
  }
}
