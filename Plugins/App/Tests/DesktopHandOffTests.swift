import NBridgePlugin
import Testing

@testable import NBridgeApp

/// What the desktop's actions hand to which program, from their options alone.
@Suite struct DesktopHandOffTests {
  let decoder = JSONValueDecoder()

  @Test func settingsTypesPickGNOMESettingsPanels() throws {
    #expect(try decoder.decode(SettingsOptions.self, from: [:]).type == .normal)
    #expect(try decoder.decode(SettingsOptions.self, from: .null).type == .normal)
    #expect(try decoder.decode(SettingsOptions.self, from: ["type": .null]).type == .normal)
    #expect(try decoder.decode(SettingsOptions.self, from: ["type": "gps"]).type == .location)
    #expect(
      DesktopHandOff.settings(type: .normal, appID: "com.example.a") == [
        "gnome-control-center", "applications", "com.example.a",
      ])
    #expect(DesktopHandOff.settings(type: .push, appID: "x") == ["gnome-control-center", "notifications"])
    #expect(DesktopHandOff.settings(type: .location, appID: "x") == ["gnome-control-center", "location"])
    for bad: JSONValue in ["wifi", "", 1, ["normal"]] {
      let error = #expect(throws: BridgeError.self) { try decoder.decode(SettingsOptions.self, from: ["type": bad]) }
      #expect(error?.code == .invalidParameter)
      #expect(error?.message.hasPrefix("\"type\"") == true, "\(error?.message ?? "")")
    }
  }

  @Test func shareBuildsAMailWithSubjectAndBody() {
    #expect(
      DesktopHandOff.share(ShareOptions(text: "t", url: "https://x", title: "T"))
        == ["xdg-email", "--subject", "T", "--body", "t\nhttps://x"])
    #expect(DesktopHandOff.share(ShareOptions(text: "t")) == ["xdg-email", "--body", "t"])
    #expect(
      DesktopHandOff.share(ShareOptions(text: "", url: "https://x", title: "")) == ["xdg-email", "--body", "https://x"])
  }

  @Test func desktopProgramsNeedADisplayAndANonHeadlessRun() {
    #expect(DesktopHandOff.missingDesktop(headless: true, environment: ["DISPLAY": ":0"])?.contains("headless") == true)
    #expect(DesktopHandOff.missingDesktop(headless: false, environment: [:])?.contains("DISPLAY") == true)
    #expect(DesktopHandOff.missingDesktop(headless: false, environment: ["WAYLAND_DISPLAY": "wayland-0"]) == nil)
  }
}
