import ArgumentParser
import NBridgeControl
import NBridgePlugin
import NBridgeRuntime

extension NBridgeCommand {
  /// `nbridge ps [--json]`: the running apps, found by their control sockets.
  struct Ps: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the running apps (nbridge run / nbridge app) with their process id and state.",
      discussion: """
        An app is listed when its control socket answers; STATE is what it answers to the \
        'state' op, or '-' when it has none. Stale sockets are skipped.
        """)

    @Flag(help: "Print a JSON array of {app, pid, state}.")
    var json = false

    func run() throws {
      var rows: [(app: String, pid: Int32, state: String?)] = []
      for id in ControlPaths.socketAppIDs() {
        do {
          let reply = try ControlClient.send(["op": "state"], toApp: id, timeout: 1)
          rows.append((id, reply.peer.pid, reply.ok ? reply.fields["state"]?.stringValue : nil))
        } catch .notRunning {
          continue
        } catch {
          rows.append((id, 0, nil))
        }
      }
      if json {
        let list = JSONValue.array(
          rows.map { ["app": .string($0.app), "pid": .number(Double($0.pid)), "state": $0.state.map { .string($0) } ?? .null] })
        print(list.prettyJSON)
        return
      }
      let width = max(3, rows.map(\.app.count).max() ?? 0)
      print(pad("APP", width) + "  " + pad("PID", 7) + "  STATE")
      for row in rows {
        print(pad(row.app, width) + "  " + pad(row.pid > 0 ? String(row.pid) : "?", 7) + "  " + (row.state ?? "-"))
      }
    }

    private func pad(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(0, width - text.count))
    }
  }
}
