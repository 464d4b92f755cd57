/// The app's `nbridge.json` (or the defaults used without one).
public struct AppManifest: Sendable, Hashable, Codable {
  /// Reverse-DNS id; names the data dir.
  public var id: String
  /// Display name.
  public var name: String
  /// Version string.
  public var version: String
  /// Build string.
  public var build: String
  /// Services the app may use; nil means every registered service.
  public var permissions: [String]?

  /// A manifest.
  public init(id: String, name: String, version: String = "0.0.0", build: String = "0", permissions: [String]? = nil)
  {
    self.id = id
    self.name = name
    self.version = version
    self.build = build
    self.permissions = permissions
  }
}
