import Foundation
import NBridgeTesting
import Testing

/// Without a window, dialogs are `unavailable`, unless the run simulates them
/// (`NBRIDGE_DIALOG=simulate`, or `nbridge test`): then `simulate` queues their answers.
@Suite struct DialogSimulatedTests {
  func run(_ script: String, simulate: Bool) throws -> (status: Int32, stdout: String, stderr: String) {
    let dir = try TemporaryDirectory(prefix: "nbridge-dialog-run")
    try script.write(toFile: dir.file("main.js"), atomically: true, encoding: .utf8)
    var env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    if simulate { env["NBRIDGE_DIALOG"] = "simulate" }
    return try NBridgeTest.command(["run", dir.file("main.js")], environment: env, timeout: 30)
  }

  @Test func aHeadlessRunHasNoDialogs() throws {
    let r = try run(
      """
      for (const attempt of [() => nbridge.dialog.open(), () => nbridge.dialog.simulate({ answers: [null] })]) {
        await attempt().catch((e) => console.log(e.code + ': ' + e.message));
      }
      """, simulate: false)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("unavailable: dialog.open: this run has no window to show a dialog over"), "\(r.stdout)")
    #expect(r.stdout.contains("unavailable: dialog.simulate: this run shows real dialogs"), "\(r.stdout)")
  }

  @Test func simulatedAnswersComeInOrderAndMustFit() throws {
    let r = try run(
      """
      const show = (name, value) => console.log(name + ' ' + JSON.stringify(value));
      show('queued', await nbridge.dialog.simulate({ answers: ['/home/u/a.txt', null, ['/a', '/b'], 'Keep', true, 7] }));
      show('open', await nbridge.dialog.open());
      show('cancel', await nbridge.dialog.save());
      show('many', await nbridge.dialog.open({ multiple: true }));
      show('message', await nbridge.dialog.message({ message: 'm', buttons: ['Discard', 'Keep'] }));
      show('confirm', await nbridge.dialog.confirm({ message: 'q' }));
      await nbridge.dialog.open().catch((e) => show('misfit', e.code + ': ' + e.message));
      await nbridge.dialog.open().catch((e) => show('empty', e.code + ': ' + e.message));
      await nbridge.dialog.message({ message: 'm', buttons: [] }).catch((e) => show('bad', e.code + ': ' + e.message));
      await nbridge.dialog.open({ filters: [{ name: 'x', extensions: ['*.txt'] }] })
        .catch((e) => show('filter', e.code + ': ' + e.message));
      await nbridge.dialog.save({ defaultPath: 'relative.txt' }).catch((e) => show('path', e.code + ': ' + e.message));
      """, simulate: true)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines == [
        "queued 6", "open \"/home/u/a.txt\"", "cancel null", "many [\"/a\",\"/b\"]", "message \"Keep\"",
        "confirm true",
        "misfit \"invalid_parameter: dialog.open: \\\"answers\\\" the simulated answer 7 does not fit dialog.open\"",
        "empty \"unavailable: dialog.open: no simulated answer is left for dialog.open (queue some with dialog.simulate)\"",
        "bad \"invalid_parameter: dialog.message: \\\"buttons\\\" must hold 1 to 4 labels\"",
        "filter \"invalid_parameter: dialog.open: \\\"filters[0].extensions[0]\\\" must be an extension such as \\\"txt\\\" (no dot, no wildcard but \\\"*\\\")\"",
        "path \"invalid_parameter: dialog.save: \\\"defaultPath\\\" must be an absolute path\"",
      ], "\(r.stdout)")
  }
}
