import Foundation
import NBridgeTesting
import Testing

/// The version a plugin package names with `from:` is a plain semantic version with a changelog section.
@Suite(.onTestThreads) struct VersionTests {
  @Test func theVersionIsPlainSemverWithAChangelogSection() throws {
    let printed = try NBridgeTest.command(["--version"])
    #expect(printed.status == 0)
    let version = printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = version.split(separator: ".", omittingEmptySubsequences: false)
    #expect(parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "got \(version)")
    let changelog = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("CHANGELOG.md")
    let text = try String(contentsOf: changelog, encoding: .utf8)
    #expect(text.contains("\n## \(version) "), "CHANGELOG.md needs a section \"## \(version) — date\"")
  }
}
