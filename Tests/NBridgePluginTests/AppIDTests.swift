import NBridgePlugin
import Testing

/// The app id rule, checked wherever an id becomes part of a path.
@Suite struct AppIDTests {
  @Test func reverseDNSIdsPass() {
    #expect(AppID.problem("org.example.app") == nil)
    #expect(AppID.problem("a") == nil)
    #expect(AppID.problem("com.example.my-app_2") == nil)
    #expect(AppID.problem("a.b.") == nil, "a trailing dot is one name still")
    #expect(AppID.problem(String(repeating: "a", count: AppID.maximumLength)) == nil)
  }

  @Test func eachRuleNamesWhatIsWrong() {
    #expect(AppID.problem("") == "must not be empty")
    #expect(AppID.problem(String(repeating: "a", count: AppID.maximumLength + 1)) == "must be at most 128 bytes long")
    let reverseDNS = "must be reverse-DNS: ASCII letters, digits, '.', '-' and '_' only"
    #expect(AppID.problem("org/example") == reverseDNS)
    #expect(AppID.problem("org.exämple") == reverseDNS)
    #expect(AppID.problem("org example") == reverseDNS)
    #expect(AppID.problem(".org.example") == "must not start with '.'")
    #expect(AppID.problem("..") == "must not start with '.'")
    #expect(AppID.problem("org..example") == "must not contain '..'")
    #expect(AppID.problem("org.example..") == "must not contain '..'")
    #expect(AppID.problem("a/..b") == reverseDNS, "a character outside the rule is named before '..'")
  }
}
