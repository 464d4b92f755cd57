import Foundation
import NBridgeTesting
import Testing

/// The plugin reference in `docs/plugins/` agrees with the registry.
@Suite(.onTestThreads) struct DocsCatalogueTests {
  static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs")

  static func page(_ name: String) throws -> String {
    try String(contentsOf: docs.appendingPathComponent("plugins/\(name).md"), encoding: .utf8)
  }

  /// The page that describes a service: its own, but `preference` shares `storage`'s.
  static func pageName(of service: String) -> String { service == "preference" ? "storage" : service }

  static func catalogue() throws -> [[String: Any]] {
    let json = try NBridgeTest.command(["plugins", "--json"])
    try #require(json.status == 0, "nbridge plugins --json: \(json.stderr)")
    return try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
  }

  @Test func embeddedCatalogueMatchesPluginsMarkdown() throws {
    let text = try Self.page("README")
    let begin = try #require(text.range(of: "<!-- plugins:begin -->\n"))
    let end = try #require(text.range(of: "<!-- plugins:end -->"))
    let embedded = String(text[begin.upperBound..<end.lowerBound])
    let generated = try NBridgeTest.command(["plugins", "--markdown"])
    #expect(generated.status == 0)
    #expect(embedded == generated.stdout, "regenerate docs/plugins/README.md's block with `nbridge plugins --markdown`")
  }

  @Test func everyServiceActionAndEventOfTheJSONCatalogueIsInTheCatalogue() throws {
    let text = try Self.page("README")
    let services = try Self.catalogue()
    #expect(services.count == 14)
    for service in services {
      let name = try #require(service["service"] as? String)
      #expect(text.contains("#### `\(name)` (permission `\(service["permission"] as? String ?? "")`)"))
      for action in service["actions"] as? [[String: Any]] ?? [] {
        let options = action["options"] as? String ?? ""
        let row =
          "| `\(action["name"] as? String ?? "")` | \(options == "void" ? "—" : "`\(options.replacingOccurrences(of: "|", with: "\\|"))`") |"
        #expect(text.contains(row), "\(name): \(row)")
      }
      for event in service["events"] as? [[String: Any]] ?? [] {
        #expect(text.contains("| `\(event["name"] as? String ?? "")` |"), "\(name) event")
      }
    }
  }

  /// Each service has its page in `docs/plugins/`, which names every action and event it has.
  @Test func everyServiceHasAPageThatNamesEachActionAndEvent() throws {
    for service in try Self.catalogue() {
      let name = try #require(service["service"] as? String)
      let page = try Self.page(Self.pageName(of: name))
      #expect(page.contains("`\(name)`"), "docs/plugins/\(Self.pageName(of: name)).md should name `\(name)`")
      let members = (service["actions"] as? [[String: Any]] ?? []) + (service["events"] as? [[String: Any]] ?? [])
      for member in members {
        let member = member["name"] as? String ?? ""
        #expect(page.contains("`\(member)"), "docs/plugins/\(Self.pageName(of: name)).md: \(name).\(member)")
      }
    }
  }
}
