/// Exit codes of a run.
public enum ExitStatus {
  /// Ran to the end.
  public static let success: Int32 = 0
  /// An uncaught exception, unhandled rejection or syntax error.
  public static let uncaught: Int32 = 1
  /// A usage error or a bad manifest.
  public static let usage: Int32 = 2
  /// Stopped by `--timeout`.
  public static let timedOut: Int32 = 124
  /// Stopped by SIGHUP.
  public static let hungUp: Int32 = 129
  /// Stopped by SIGINT.
  public static let interrupted: Int32 = 130
  /// Stopped by SIGTERM.
  public static let terminated: Int32 = 143
}
