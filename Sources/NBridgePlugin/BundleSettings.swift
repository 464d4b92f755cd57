/// `bundle` in `nbridge.json`: what `nbridge bundle` puts in the app's packages besides the id,
/// name, version and description.
public struct BundleSettings: Sendable, Hashable, Codable {
  /// The installed command, `/usr/bin/<command>`, and the package's name (default: the id's last
  /// part, lowercased).
  public var command: String?
  /// A PNG or SVG in the app's folder, relative to it, for the desktop's icon themes.
  public var icon: String?
  /// freedesktop.org menu categories, such as `Utility` (default `["Utility"]`).
  public var categories: [String]?
  /// The app's license as an SPDX expression, such as `MIT` (default `LicenseRef-proprietary`).
  public var license: String?
  /// The app's web site, an `https://` or `http://` URL.
  public var homepage: String?
  /// Who answers for the package: `Name <email>` (default: the app's name at an address that cannot be reached).
  public var maintainer: String?

  /// Settings; nil fields take the defaults.
  public init(
    command: String? = nil, icon: String? = nil, categories: [String]? = nil, license: String? = nil,
    homepage: String? = nil, maintainer: String? = nil
  ) {
    self.command = command
    self.icon = icon
    self.categories = categories
    self.license = license
    self.homepage = homepage
    self.maintainer = maintainer
  }
}
