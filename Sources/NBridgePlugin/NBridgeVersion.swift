/// nbridge's version: what `--version` prints, what a plugin package names with `from:`, and what
/// `navigator.userAgent` reports (`nbridge/<version>`).
///
/// A release is tagged in git with this version as it stands, `MAJOR.MINOR.PATCH` with no `v`
/// (SwiftPM resolves `from:` against plain semantic-version tags), and has a section of that
/// name in `CHANGELOG.md`.
public enum NBridgeVersion {
  /// The released version this build is, `MAJOR.MINOR.PATCH`.
  public static let current = "0.2.0"
  /// The git repository plugin packages depend on: the default of `nbridge init --plugin`'s `--nbridge`.
  public static let repository = "https://github.com/nbridge/nbridge"
}
