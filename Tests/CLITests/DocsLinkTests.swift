import Foundation
import Testing

/// The README stays one screen, and every link between the README and `docs/` leads somewhere.
@Suite struct DocsLinkTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// README.md and every Markdown file under docs/, as paths relative to the repository.
  static func pages() -> [String] {
    let docs = root.appendingPathComponent("docs").path
    let found = FileManager.default.enumerator(atPath: docs)?.compactMap { $0 as? String } ?? []
    return ["README.md"] + found.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
  }

  /// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`.
  static func anchor(_ heading: String) -> String {
    String(
      heading.lowercased().compactMap { c -> Character? in
        if c == " " { return "-" }
        return c.isLetter || c.isNumber || c == "-" || c == "_" ? c : nil
      })
  }

  /// The anchors of a page's headings (outside code blocks).
  static func anchors(_ text: String) -> Set<String> {
    var result: Set<String> = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      guard !inCode, line.hasPrefix("#") else { continue }
      result.insert(anchor(String(line.drop { $0 == "#" }.drop { $0 == " " })))
    }
    return result
  }

  /// The targets of a page's inline links `[text](target)` (outside code blocks), but web ones.
  static func links(_ text: String) -> [String] {
    var result: [String] = []
    var inCode = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") { inCode.toggle() }
      guard !inCode else { continue }
      var rest = Substring(line)
      while let open = rest.range(of: "](") {
        guard let close = rest[open.upperBound...].firstIndex(of: ")") else { break }
        let target = String(rest[open.upperBound..<close])
        if !target.contains("://") && !target.hasPrefix("mailto:") { result.append(target) }
        rest = rest[close...]
      }
    }
    return result
  }

  @Test func theReadmeIsOneScreen() throws {
    let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
    #expect(lines <= 200, "README.md has \(lines) lines; reference belongs in docs/")
    #expect(text.contains("make run") && text.contains("make test"))
  }

  @Test func everyLinkLeadsToAFileAndHeadingThatExist() throws {
    let pages = Self.pages()
    #expect(pages.count > 20, "docs/ should hold the pages: \(pages)")
    for page in pages {
      let url = Self.root.appendingPathComponent(page)
      let text = try String(contentsOf: url, encoding: .utf8)
      for link in Self.links(text) {
        let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let target = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0])
        #expect(FileManager.default.fileExists(atPath: target.path), "\(page): \(link) leads nowhere")
        guard parts.count == 2, target.pathExtension == "md",
          let linked = try? String(contentsOf: target, encoding: .utf8)
        else { continue }
        #expect(Self.anchors(linked).contains(parts[1]), "\(page): \(link) names no heading of its page")
      }
    }
  }
}
