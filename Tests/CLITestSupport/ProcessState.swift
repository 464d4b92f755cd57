import Foundation

/// What `/proc` says of a process the tests did not start themselves (a daemon an app spawned).
public enum ProcessState {
  /// Whether `pid` is gone (or a zombie nobody has reaped yet).
  public static func isGone(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
    return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
  }
}
