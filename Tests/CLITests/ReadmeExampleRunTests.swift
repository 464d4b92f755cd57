import Foundation
import NBridgeTesting
import Testing

/// The README's example runs as its comments say.
@Suite(.onTestThreads) struct ReadmeExampleRunTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  @Test func theExamplePrintsAndNotifiesOnTheNextCopy() throws {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    let section = try #require(text.range(of: "\n## Example\n"))
    let open = try #require(text.range(of: "```js\n", range: section.upperBound..<text.endIndex))
    let close = try #require(text.range(of: "\n```", range: open.upperBound..<text.endIndex))
    let example = String(text[open.upperBound..<close.lowerBound])
    #expect(example.split(separator: "\n").count <= 10, "the README's example should stay ten lines")

    let scratch = try TemporaryDirectory(prefix: "nbridge-readme")
    // The copy the example waits for, made after it as another program would.
    let script = try scratch.write(
      "hello/hello.js", example + "\nawait nbridge.pasteboard.setString({ string: 'Retina' });\n")
    let environment: [String: String?] = NBridgeTest.headless.merging([
      "NBRIDGE_DATA_DIR": scratch.file("data"), "NBRIDGE_SHARED_DIR": scratch.file("shared"),
      "NBRIDGE_PASTEBOARD_BACKEND": "shared",
    ]) { $1 }
    let run = try NBridgeTest.command(["run", script], environment: environment, timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout == "hello, run #1, theme dark\ninvalid_parameter\n")
    #expect(run.stderr.contains("notification [hello] Copied: Retina"), "\(run.stderr)")
  }
}
