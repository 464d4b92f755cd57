import Foundation
import Glibc

/// `nbridge test --page` against `nbridge test` on one fixed file of ten tests (storage calls,
/// timers, JSON: what runs the same both ways), each a whole process run, wall clock: the
/// page's under an Xvfb this benchmark starts and stops (DISPLAY given, so nbridge starts none),
/// the headless one beside it in the same rounds.
struct PageTestBench {
  let nbridge: String
  let directory: String

  struct Figures {
    var page: Double?
    var headless: Double?
  }

  static let file = """
    for (let i = 0; i < 8; i++) {
      test('storage round ' + i, async () => {
        await nbridge.storage.set({ key: 'k' + i, value: { i, list: [1, 2, 3] } });
        assert.deepEqual(await nbridge.storage.get({ key: 'k' + i }), { i, list: [1, 2, 3] });
      });
    }
    test('a timer fires', () => new Promise((resolve) => setTimeout(resolve, 5)));
    test('JSON round trip', () => assert.deepEqual(JSON.parse(JSON.stringify({ a: [1, 'b'] })), { a: [1, 'b'] }));

    """

  func run(rounds: Int) -> Figures {
    let display = ":\(600 + getpid() % 300)"
    let xvfb = Spawned(["Xvfb", display, "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset"])
    defer {
      kill(xvfb.pid, SIGTERM)
      _ = xvfb.wait()
    }
    let socket = "/tmp/.X11-unix/X\(display.dropFirst())"
    for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + "/bench.test.js"
    try? Self.file.write(toFile: path, atomically: true, encoding: .utf8)
    var pages: [Double] = [], headless: [Double] = []
    for round in 0..<rounds {
      progress("pagetest, round \(round + 1) of \(rounds): nbridge test --page, then nbridge test")
      let page = Spawned(
        [nbridge, "test", "--page", path], set: ["DISPLAY": display],
        unset: ["WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"], stdout: directory + "/page.out")
      let pageRun = page.wait()
      if pageRun.status == 0 { pages.append(pageRun.ms) }
      let plain = Spawned(
        [nbridge, "test", path], unset: ["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"],
        stdout: directory + "/headless.out")
      let plainRun = plain.wait()
      if plainRun.status == 0 { headless.append(plainRun.ms) }
    }
    return Figures(page: median(pages), headless: median(headless))
  }
}
