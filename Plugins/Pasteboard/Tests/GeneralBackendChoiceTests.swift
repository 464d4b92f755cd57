import Testing

@testable import NBridgePasteboard

@Suite struct GeneralBackendChoiceTests {
  @Test func headlessAlwaysUsesTheSharedStore() {
    #expect(GeneralBackendChoice.choose(headless: true, environment: ["DISPLAY": ":0"]) == .shared)
  }

  @Test func x11IsPreferredWhenBothDisplaysAreSet() {
    let env = ["DISPLAY": ":1", "WAYLAND_DISPLAY": "wayland-0"]
    #expect(GeneralBackendChoice.choose(headless: false, environment: env) == .x11(display: ":1"))
  }

  @Test func waylandWhenOnlyItIsSet() {
    let env = ["WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ""]
    #expect(GeneralBackendChoice.choose(headless: false, environment: env) == .wayland(display: "wayland-0"))
  }

  @Test func sharedStoreWithoutAnyDisplay() {
    #expect(GeneralBackendChoice.choose(headless: false, environment: [:]) == .shared)
  }

  @Test func theOverrideVariableChooses() {
    let env = ["DISPLAY": ":1", "WAYLAND_DISPLAY": "w", "NBRIDGE_PASTEBOARD_BACKEND": "wayland"]
    #expect(GeneralBackendChoice.choose(headless: false, environment: env) == .wayland(display: "w"))
    #expect(
      GeneralBackendChoice.choose(
        headless: false, environment: ["DISPLAY": ":1", "NBRIDGE_PASTEBOARD_BACKEND": "shared"])
        == .shared)
  }

  @Test func aBadOverrideIsReported() {
    let choice = GeneralBackendChoice.choose(headless: false, environment: ["NBRIDGE_PASTEBOARD_BACKEND": "x11"])
    #expect(choice == .misconfigured("NBRIDGE_PASTEBOARD_BACKEND=x11 but DISPLAY is not set"))
  }
}
