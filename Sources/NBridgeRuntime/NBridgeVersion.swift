/// The version `--version` prints and `navigator.userAgent` names (`nbridge/<version>`).
public enum NBridgeVersion {
  /// The release's semantic version.
  public static let current = "0.1.0"
}
