import Foundation
import NBridgeTesting
import Testing

/// The README's plugin reference agrees with the registry.
@Suite struct ReadmeCatalogueTests {
  static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("README.md")

  @Test func embeddedCatalogueMatchesPluginsMarkdown() throws {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    let begin = try #require(text.range(of: "<!-- plugins:begin -->\n"))
    let end = try #require(text.range(of: "<!-- plugins:end -->"))
    let embedded = String(text[begin.upperBound..<end.lowerBound])
    let generated = try NBridgeBinary.run(["plugins", "--markdown"])
    #expect(generated.status == 0)
    #expect(embedded == generated.stdout, "regenerate with `nbridge plugins --markdown`")
  }

  @Test func everyServiceActionAndEventOfTheJSONCatalogueIsInTheReadme() throws {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    let json = try NBridgeBinary.run(["plugins", "--json"])
    let services = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(services.count == 6)
    for service in services {
      let name = try #require(service["service"] as? String)
      #expect(text.contains("#### `\(name)` (permission `\(service["permission"] as? String ?? "")`)"))
      for action in service["actions"] as? [[String: Any]] ?? [] {
        let options = action["options"] as? String ?? ""
        let row = "| `\(action["name"] as? String ?? "")` | \(options == "void" ? "—" : "`\(options.replacingOccurrences(of: "|", with: "\\|"))`") |"
        #expect(text.contains(row), "\(name): \(row)")
      }
      for event in service["events"] as? [[String: Any]] ?? [] {
        #expect(text.contains("| `\(event["name"] as? String ?? "")` |"), "\(name) event")
      }
    }
  }
}
