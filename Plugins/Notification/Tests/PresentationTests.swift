import CGio
import NBridgeDBus
import NBridgePlugin
import Testing

@testable import NBridgeNotification

/// What reaches stderr and what goes over D-Bus.
struct PresentationTests {
  @Test func theStderrLineIsOneReadableLine() {
    let n = StoredNotification(
      id: "1", title: "Copied", body: "'Retina'\nmeans a screen", data: .null,
      actions: [NotificationButton(id: "open", title: "Open"), NotificationButton(id: "later", title: "Later")],
      at: 0)
    #expect(
      StderrNotifications.line(for: n, appName: "Seeds")
        == "notification [Seeds] Copied: 'Retina' means a screen [Open | Later]")
    let bare = StoredNotification(id: "2", title: "Done", body: "", data: .null, actions: [], at: 0)
    #expect(StderrNotifications.line(for: bare, appName: "Seeds") == "notification [Seeds] Done")
  }

  @Test func markupIsEscapedForServersThatParseIt() {
    #expect(escapeMarkup("a < b && c > d") == "a &lt; b &amp;&amp; c &gt; d")
  }

  @Test func closeReasonsHaveNames() {
    #expect([1, 2, 3, 4, 9].map { closeReason(code: $0) } == ["expired", "dismissed", "closed", "unknown", "unknown"])
  }

  @Test func notifyArgumentsSurviveAGVariantRoundTrip() {
    let arguments = DBusValue.tuple([
      .string("Seeds"), .uint32(0), .string(""), .string("Title"), .string("Body"),
      .strings(["default", "Open", "yes", "Yes"]), .dictionary(["urgency": .byte(1), "desktop-entry": .string("a.b")]),
      .int32(-1),
    ])
    let variant = g_variant_ref_sink(arguments.makeVariant())!
    defer { g_variant_unref(variant) }
    #expect(String(cString: g_variant_get_type_string(variant)) == "(susssasa{sv}i)")
    #expect(DBusValue(reading: variant) == arguments)
  }
}
