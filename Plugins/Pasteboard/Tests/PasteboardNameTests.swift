import NBridgePlugin
import Testing

@testable import NBridgePasteboard

@Suite struct PasteboardNameTests {
  @Test func acceptsOrdinaryNames() throws {
    for name in ["com.example.handoff", "sender receiver", "日本語", String(repeating: "a", count: 128)] {
      #expect(try PasteboardName(name).rawValue == name)
    }
  }

  @Test(arguments: ["", "a/b", ".hidden", "..", "tab\there", String(repeating: "a", count: 129)])
  func rejectsNamesThatCannotBeFiles(_ name: String) {
    #expect {
      try PasteboardName(name)
    } throws: { error in
      (error as? BridgeError)?.code == .invalidParameter
        && (error as? BridgeError)?.message.hasPrefix("\"name\"") == true
    }
  }
}
