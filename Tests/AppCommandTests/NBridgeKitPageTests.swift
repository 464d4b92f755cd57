import CLITestSupport
import Foundation
import NBridgeTesting
import Testing

/// NBridgeKit's page protocol in `nbridge app` (`pageProtocol: "nbridgekit"`): a page of the
/// test's, speaking as NBridgeKit's nbridge.js does, calls `nBridge.callFromWeb(json)` and is
/// answered with NBridgeKit's shapes. Issue 33, item 5. (A streaming action, which needs the
/// echo test plugin: `WindowStreamingTests`.)
@Suite(.serialized, .onTestThreads) struct NBridgeKitPageTests {
  static let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/nbridgekit-page").path

  @Test func aPageFindsNBridgeAndGetsNBridgeKitsShapes() throws {
    let xvfb = try XvfbServer()
    let dir = try TemporaryDirectory(prefix: "nbridge-nbk")
    var env = NBridgeTest.headless
    env["DISPLAY"] = xvfb.display
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
    let r = try NBridgeTest.command(
      ["app", Self.page, "--script", Self.page + "/calls.js", "--exit-after-script"], environment: env, timeout: 60)
    #expect(r.status == 0, "\(r.stderr)")
    let result = ScriptOutput.json(r.stdout)
    #expect(result["platform"] as? String == "android", "\(r.stdout)")
    #expect(result["nBridgeType"] as? String == "object")
    // A success without data answers "" (NBridgeKit's sendSuccessResult()).
    #expect(result["set"] as? String == "")
    // get answers Base64 of the stored string (of defaultValue when the key is absent).
    #expect(result["getRaw"] as? String == "aMOpbGxvIOyViOuFlQ==", "\(r.stdout)")
    #expect(result["get"] as? String == "héllo 안녕")
    #expect(result["getDefault"] as? String == "fallback")
    // The typed variants answer their value as text, as NBridgeKit's do.
    #expect(result["setBoolean"] as? String == "")
    #expect(result["getBoolean"] as? String == "true")
    #expect(result["getBooleanDefault"] as? String == "true")
    #expect(result["getInt"] as? String == "-42")
    #expect(result["getLong"] as? String == "9007199254740991")
    #expect((result["intTooBig"] as? [String: Any])?["code"] as? String == "invalid_parameter")
    let detail = result["intTooBigError"] as? [String: Any]
    #expect(detail?["code"] as? String == "invalid_parameter")
    #expect((detail?["message"] as? String)?.hasPrefix("preference.setInt: \"value\" must be a whole number") == true)
    #expect((result["intOfBoolean"] as? [String: Any])?["code"] as? String == "invalid_parameter")
    // Parsed as every call's options are: a lone surrogate is refused naming the field.
    let lone = result["loneSurrogateError"] as? [String: Any]
    #expect(lone?["code"] as? String == "invalid_parameter", "\(r.stdout)")
    #expect((lone?["message"] as? String)?.hasPrefix("nBridge: \"key\" must be well-formed UTF-16") == true, "\(r.stdout)")
    #expect(result["remove"] as? String == "")
    #expect(result["afterRemove"] as? String == "gone")
    #expect(result["appId"] as? String == "dev.nbridge.nbridgekitpage")
    #expect((result["unknownAction"] as? [String: Any])?["code"] as? String == "invalid_action_name")
    #expect((result["unknownService"] as? [String: Any])?["code"] as? String == "invalid_service")
    // WKBridge, beside it, keeps WKBridgeKit's answer: the value as stored.
    #expect(result["wkBridge"] as? String == "as is", "\(r.stdout)")
    #expect(!r.stderr.contains("Uncaught"), "\(r.stderr)")
  }
}
