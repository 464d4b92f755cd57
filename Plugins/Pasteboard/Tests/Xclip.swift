import Foundation
import NBridgeTesting
import Testing

@testable import NBridgePasteboard

/// `xclip` as the other application on the X11 clipboard.
enum Xclip {
  /// Copies `text` with `xclip -i` and returns once `xclip -o` pastes it, since xclip 0.13
  /// exits before its background half has taken the selection.
  ///
  /// `-i` runs through posix_spawn (the plugin's `HelperProcess`): Foundation's `Process`,
  /// and so `ChildProcess`, waits for every holder of a descriptor it hands down, which
  /// includes the background half that keeps the selection.
  static func copy(_ text: String, display: String, target: String? = nil) async throws {
    let type = target.map { ["-t", $0] } ?? []
    let environment = ["DISPLAY": display, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
    let copied = try await HelperProcess.run(
      ["xclip", "-selection", "clipboard"] + type + ["-i"], input: Array(text.utf8), environment: environment)
    #expect(copied.status == 0)
    try await waitFor(text, display: display, target: target)
  }

  /// Returns once `xclip -o` pastes `text` (up to 10 s; an issue is recorded if it never does).
  static func waitFor(_ text: String, display: String, target: String? = nil) async throws {
    for _ in 0..<500 {
      if try await paste(display: display, target: target).stdout == text { return }
      try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("xclip never pasted \"\(text.prefix(40))\"")
  }

  /// `xclip -o`: what the clipboard holds (status 1 when it holds nothing), run off the loop thread.
  static func paste(display: String, target: String? = nil) async throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let type = target.map { ["-t", $0] } ?? []
    return try await Task.detached {
      try ChildProcess.run(
        "xclip", ["-selection", "clipboard"] + type + ["-o"], environment: ["DISPLAY": display], timeout: 20)
    }.value
  }
}
