import NBridgePlugin
import Testing

@testable import NBridgeApp

@Suite struct DeviceProbeTests {
  func probe(_ files: [String: String]) -> DeviceProbe {
    DeviceProbe(readFile: { files[$0] }, machine: { "x86_64" })
  }

  @Test func readsOSReleaseDMIAndLocale() {
    let info = probe([
      "/etc/os-release":
        "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\n",
      "/sys/class/dmi/id/product_name": "ThinkPad X1 Carbon Gen 9\n",
      "/sys/class/dmi/id/sys_vendor": "LENOVO\n",
    ]).info(environment: ["LANG": "de_AT.UTF-8"], deviceId: "id")
    #expect(
      info
        == DeviceInfo(
          osVersion: "12", version: "12", model: "ThinkPad X1 Carbon Gen 9", manufacturer: "LENOVO", arch: "x86_64",
          language: "de", region: "AT", deviceId: "id"))
  }

  @Test func theDMIFolderComesFromTheEnvironmentAndPlaceholdersAreNull() {
    let files = [
      "/fake/dmi/product_name": "To be filled by O.E.M.\n", "/fake/dmi/sys_vendor": "  Framework \n",
      "/sys/class/dmi/id/product_name": "Real", "/sys/class/dmi/id/sys_vendor": "Real",
    ]
    let info = probe(files).info(environment: ["NBRIDGE_DMI_DIR": "/fake/dmi"], deviceId: "id")
    #expect(info.model == nil)
    #expect(info.manufacturer == "Framework")
  }

  @Test func fallsBackWhenFilesAreMissing() {
    let info = probe(["/usr/lib/os-release": "ID=arch\nBUILD_ID=rolling\n"]).info(environment: [:], deviceId: "id")
    #expect(info.osVersion == "rolling")
    #expect(info.model == nil)
    #expect(info.manufacturer == nil)
    #expect(info.language == "en")
    #expect(info.region == nil)
    #expect(probe([:]).info(environment: [:], deviceId: "id").osVersion == "unknown")
  }

  @Test func localePrecedenceAndForms() {
    #expect(DeviceProbe.locale(["LANG": "fr_FR.UTF-8", "LC_ALL": "ja_JP.eucJP"]) == ("ja", "JP"))
    #expect(DeviceProbe.locale(["LANG": "fr_FR.UTF-8", "LC_MESSAGES": "pt_BR"]) == ("pt", "BR"))
    #expect(DeviceProbe.locale(["LANG": "sr_RS@latin"]) == ("sr", "RS"))
    #expect(DeviceProbe.locale(["LANG": "eo"]) == ("eo", nil))
    #expect(DeviceProbe.locale(["LANG": "C.UTF-8"]) == ("en", nil))
    #expect(DeviceProbe.locale(["LC_ALL": "", "LANG": "it_IT"]) == ("it", "IT"))
  }

  @Test func encodesUnknownFieldsAsNull() throws {
    let info = DeviceInfo(
      osVersion: "12", version: "12", model: nil, manufacturer: nil, arch: "aarch64", language: "en", region: nil,
      deviceId: "d")
    let value = try JSONValueEncoder().encode(info)
    #expect(value["region"] == .null)
    #expect(value["model"] == .null)
    #expect(value["manufacturer"] == .null)
    #expect(value["platform"] == "linux")
  }

  @Test func theRealMachineHasAnArchitecture() {
    #expect(!DeviceProbe.unameMachine().isEmpty)
  }

  @Test func exitCodesAreCheckedAndDefaultToZero() throws {
    let decoder = JSONValueDecoder()
    #expect(try decoder.decode(ExitOptions.self, from: [:]).code == 0)
    #expect(try decoder.decode(ExitOptions.self, from: .null).code == 0)
    #expect(try decoder.decode(ExitOptions.self, from: ["code": 3]).code == 3)
    for bad: JSONValue in [["code": 256], ["code": -1], ["code": 1.5], ["code": "3"]] {
      let error = #expect(throws: BridgeError.self) { try decoder.decode(ExitOptions.self, from: bad) }
      #expect(error?.code == .invalidParameter)
      #expect(error?.message.contains("\"code\"") == true)
    }
  }
}
