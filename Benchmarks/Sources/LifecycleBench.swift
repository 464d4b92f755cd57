import Foundation
import Glibc

/// The lifecycle's figures, from `nbridge test` children that drive it with `simulate()`: the CPU
/// of a suspended app whose script would otherwise wake 100 times a second, and how late
/// `expiration` fires against its deadline.
struct LifecycleBench {
  let processes: Processes

  /// % of a core used over `seconds` by a suspended app with a 10 ms `setInterval` and a pasteboard watcher.
  func suspendedIdleCPU(seconds: Double) -> Double? {
    let folder = "\(processes.directory)/suspended"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let script = "\(folder)/idle.test.js"
    try? """
    test('suspended', async () => {
      const id = setInterval(() => {}, 10);
      nbridge.pasteboard.addListener('change', () => {});
      nbridge.app.addListener('pause', () => console.log('BENCH suspended 1'));
      await simulate('background', { for: \(Int((seconds + 1.5) * 1000)) });
      clearInterval(id);
      nbridge.pasteboard.removeAllListeners();
    });
    """.write(toFile: script, atomically: true, encoding: .utf8)
    let out = "\(folder)/idle.out"
    let child = Spawned(
      [processes.nbridge, "test", "--test-timeout", String(Int((seconds + 10) * 1000)), script],
      set: processes.environment, stdout: out)
    defer { _ = child.wait() }
    let deadline = Clock.nanos() + 10_000_000_000
    while !child.output().contains("BENCH suspended") {
      guard Clock.nanos() < deadline else { return nil }
      usleep(10_000)
    }
    usleep(500_000)
    let before = child.cpuSeconds()
    let start = Clock.nanos()
    usleep(UInt32(seconds * 1e6))
    let after = child.cpuSeconds()
    let elapsed = Double(Clock.nanos() - start) / 1e9
    guard !before.isNaN, !after.isNaN else { return nil }
    return (after - before) / elapsed * 100
  }

  /// Milliseconds between when `expiration` was due (half a 2 s budget after entering
  /// background) and when the listener ran, median of `rounds`.
  func expirationSkew(rounds: Int) -> Double? {
    let folder = "\(processes.directory)/expiration"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try? #"{"id": "dev.nbridge.bench.expiration", "background": {"taskBudget": 2}}"#
      .write(toFile: "\(folder)/nbridge.json", atomically: true, encoding: .utf8)
    let script = "\(folder)/expiration.test.js"
    try? """
    for (let round = 0; round < \(rounds); round++) {
      test('expiration ' + round, async () => {
        const { id } = await nbridge.background.beginTask({ name: 'bench' });
        let paused = 0;
        nbridge.app.addListener('pause', () => paused = Date.now());
        const expired = new Promise((resolve) => {
          nbridge.background.addListener('expiration', () => resolve(Date.now()));
        });
        await simulate('background');
        const at = await expired;
        console.log('BENCH skew ' + Math.abs(at - paused - 1000));
        await nbridge.background.endTask({ id });
        nbridge.app.removeAllListeners();
        nbridge.background.removeAllListeners();
        await simulate('foreground');
      });
    }
    """.write(toFile: script, atomically: true, encoding: .utf8)
    let out = "\(folder)/expiration.out"
    let child = Spawned([processes.nbridge, "test", script], set: processes.environment, stdout: out)
    _ = child.wait()
    return median(processes.figures(child.output(), "skew"))
  }
}
