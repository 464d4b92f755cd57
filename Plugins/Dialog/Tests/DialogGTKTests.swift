import Foundation
import NBridgeTesting
import Testing

/// `nbridge.dialog` in `nbridge app` without a portal: GTK's dialogs over the app's window,
/// answered with the keyboard through `xdotool` under Xvfb and openbox.
@Suite(.serialized) struct DialogGTKTests {
  @Test func theFileChooserGivesThePathTypedAndEscapeGivesNull() throws {
    let desktop = try DialogDesktop()
    let folder = desktop.dir.file("files")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let glossary = folder + "/glossary.txt"
    try "term: meaning\n".write(toFile: glossary, atomically: true, encoding: .utf8)
    let app = try desktop.start(
      script: """
        const show = (name, value) => console.log(name + ' ' + JSON.stringify(value));
        show('opened', await nbridge.dialog.open({ title: 'Open a glossary', filters: [{ name: 'Text', extensions: ['txt'] }] }));
        show('cancelled', await nbridge.dialog.open({ title: 'Open nothing' }));
        show('saved', await nbridge.dialog.save({ title: 'Export to', defaultPath: '\(folder)/export.txt' }));
        show('pressed', await nbridge.dialog.message({ title: 'Unsaved', message: 'Keep it?', buttons: ['Discard', 'Keep'] }));
        show('closed', await nbridge.dialog.message({ title: 'Notice', message: 'Done.', kind: 'warning' }));
        show('yes', await nbridge.dialog.confirm({ title: 'Sure', message: 'Really?' }));
        show('no', await nbridge.dialog.confirm({ title: 'Not sure', message: 'Really?' }));
        """)
    defer { app.stop() }
    // The file chooser: the user types the file's path (GTK opens its location field) and Return.
    let chooser = try desktop.activeWindow("Open a glossary")
    try desktop.typePath(glossary, into: chooser)
    try desktop.accept(chooser)
    #expect(app.waitForOutput("opened \"\(glossary)\"", timeout: 30), "\(app.stdout)\n\(app.stderr)")

    _ = try desktop.activeWindow("Open nothing")
    try desktop.type(nil, then: ["Escape"])
    #expect(app.waitForOutput("cancelled null", timeout: 30), "\(app.stdout)\n\(app.stderr)")

    // Save: the proposed name in the proposed folder, accepted as it is.
    _ = try desktop.activeWindow("Export to")
    try desktop.type(nil, then: ["Return"])
    #expect(app.waitForOutput("saved \"\(folder)/export.txt\"", timeout: 30), "\(app.stdout)\n\(app.stderr)")

    // Return presses the last button (the default); Escape closes without one.
    _ = try desktop.activeWindow("Unsaved")
    try desktop.type(nil, then: ["Return"])
    #expect(app.waitForOutput("pressed \"Keep\"", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    _ = try desktop.activeWindow("Notice")
    try desktop.type(nil, then: ["Escape"])
    #expect(app.waitForOutput("closed null", timeout: 30), "\(app.stdout)\n\(app.stderr)")

    _ = try desktop.activeWindow("Sure")
    try desktop.type(nil, then: ["Return"])
    #expect(app.waitForOutput("yes true", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    _ = try desktop.activeWindow("Not sure")
    try desktop.type(nil, then: ["Escape"])
    #expect(app.waitForOutput("no false", timeout: 30), "\(app.stdout)\n\(app.stderr)")
    #expect(app.wait(timeout: 30) == 0, "\(app.stdout)\n\(app.stderr)")
    // Without a session bus GTK keeps its chooser's settings in memory: no dconf warning.
    #expect(!app.stderr.contains("dconf"), "\(app.stderr)")
  }
}
