import NBridgePlugin
import Testing

@testable import NBridgeMenu

/// Accelerators as an app writes them, in GTK's syntax (what the GtkAccelGroup binds).
@Suite struct MenuAcceleratorTests {
  @Test(arguments: [
    ("Ctrl+S", "<Control>s"), ("CmdOrCtrl+Shift+Z", "<Control><Shift>z"), ("shift + ctrl + z", "<Control><Shift>z"),
    ("Alt+Left", "<Alt>Left"), ("F5", "F5"), ("Ctrl+PageDown", "<Control>Page_Down"), ("Ctrl+Plus", "<Control>plus"),
    ("Ctrl+=", "<Control>equal"), ("Super+1", "<Super>1"), ("Ctrl+Alt+Delete", "<Control><Alt>Delete"),
  ])
  func parsesIntoGTKSyntax(text: String, gtk: String) throws {
    #expect(try MenuAccelerator(parsing: text, field: "accelerator").gtk == gtk)
  }

  @Test(arguments: [
    ("", "must be modifiers and a key joined by '+', such as 'Ctrl+S'"),
    ("Ctrl+", "must be modifiers and a key joined by '+', such as 'Ctrl+S'"),
    ("Hyper+S", "has \"Hyper\" where a modifier goes (Ctrl, Alt, Shift, Super) in \"Hyper+S\""),
    ("Ctrl+Ctrl+S", "names a modifier twice in \"Ctrl+Ctrl+S\""),
    ("Ctrl+F25", "has \"F25\" where the key goes (a letter, a digit, F1-F24, Delete, an arrow...) in \"Ctrl+F25\""),
    ("Shift+A", "\"Shift+A\" needs Ctrl, Alt or Super (only F1-F24 go alone): the page's fields need the plain key"),
  ])
  func refusesWhatDoesNotParse(text: String, problem: String) {
    #expect(throws: BridgeError.invalidParameter("items[0].accelerator", problem)) {
      try MenuAccelerator(parsing: text, field: "items[0].accelerator")
    }
  }
}
