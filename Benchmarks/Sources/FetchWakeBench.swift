import Foundation
import Glibc

/// `fetch_wake_ms`: an app that has exited is due for a fetch; `nbridge daemon` starts
/// `nbridge run --fetch` and the script's `fetch` listener runs — ms from the due time written in
/// the schedule to the listener's `Date.now()`. The floor is one `nbridge run` start-up.
struct FetchWakeBench {
  let nbridge: String
  let directory: String

  /// The medians of `rounds` wake-ups, nil when none arrived.
  func run(rounds: Int) -> Double? {
    let app = "\(directory)/app"
    try? FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
    try! #"{"id": "dev.nbridge.bench.fetch"}"#.write(toFile: "\(app)/nbridge.json", atomically: true, encoding: .utf8)
    try! """
      nbridge.background.addListener('fetch', () => {
        console.log('BENCH called ' + Date.now());
        return 'newData';
      });
      await nbridge.background.setMinimumFetchInterval({ interval: nbridge.args[0] === 'stop' ? 'never' : 1 });
      """.write(toFile: "\(app)/index.js", atomically: true, encoding: .utf8)
    var set: [String: String] = ["NBRIDGE_SCHEDULER": "daemon", "NBRIDGE_FETCH_MINIMUM": "1"]
    for name in ["XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"] {
      set[name] = "\(directory)/\(name.lowercased())"
    }
    let record = "\(directory)/xdg_data_home/nbridge/fetch/dev.nbridge.bench.fetch.json"
    let log = "\(directory)/xdg_state_home/nbridge/dev.nbridge.bench.fetch.log"
    let unset = ["NBRIDGE_DATA_DIR", "NBRIDGE_SHARED_DIR"]
    _ = Spawned([nbridge, "run", "\(app)/index.js"], set: set, unset: unset).wait()
    defer {
      _ = Spawned([nbridge, "run", "\(app)/index.js", "--", "stop"], set: set, unset: unset).wait()
      let lock = "\(directory)/xdg_data_home/nbridge/fetch/daemon.lock"
      if let text = try? String(contentsOfFile: lock, encoding: .utf8),
        let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
      {
        kill(pid, SIGTERM)
      }
    }

    var values: [Double] = []
    var lastDue: Double = 0
    let deadline = Date().addingTimeInterval(Double(rounds) * 5 + 10)
    while values.count < rounds && Date() < deadline {
      // The schedule's due time, once a woken run has moved it past the last one.
      guard let text = try? String(contentsOfFile: record, encoding: .utf8),
        let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
        let due = json["at"] as? Double, due > lastDue
      else {
        usleep(2000)
        continue
      }
      lastDue = due
      // The listener's time for that wake-up.
      while Date() < deadline {
        let calls = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
          .compactMap { $0.hasPrefix("BENCH called ") ? Double($0.dropFirst(13)) : nil }
        if let called = calls.last(where: { $0 >= due }) {
          values.append(called - due)
          break
        }
        usleep(2000)
      }
    }
    return median(values)
  }
}
