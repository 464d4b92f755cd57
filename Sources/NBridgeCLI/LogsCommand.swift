import ArgumentParser
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

extension NBridgeCommand {
  /// `nbridge logs`: the viewer apps run with `--log-to` send their records to.
  struct Logs: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show the log records of apps run with --log-to, live (many apps at once).",
      discussion: """
        Listens on 127.0.0.1:2532 unless --host/--port say otherwise; peers that are not loopback are \
        refused unless --host names a non-loopback address. One line a record: \
        '09:30:00.123 INFO  dev.x index.js:12  message', control characters shown as escapes (\\n, \\e, \\u{7}); \
        --json prints the records as JSON Lines with the app and the peer's uid. The app id is what the app \
        says; what the viewer proves is the user owning a loopback peer's socket: records from another user \
        are marked '[uid 1001]', from a peer whose user it cannot tell '[uid ?]'.
        """)

    @Option(help: "The TCP port to listen on (0: any free port, printed on stderr).")
    var port: Int = 2532

    @Option(help: "The address to listen on; one that is not loopback (0.0.0.0) takes peers from other hosts.")
    var host: String?

    @Option(help: ArgumentHelp("Show records of this level and above: debug, info, warn, error.", valueName: "level"))
    var level: String?

    @Option(help: ArgumentHelp("Show only this app's records.", valueName: "id"))
    var app: String?

    @Option(help: ArgumentHelp("Show only records whose message contains this text.", valueName: "text"))
    var grep: String?

    @Flag(help: "Print each record as a JSON line, with the app's id and pid.")
    var json = false

    func validate() throws {
      if !(0...65535).contains(port) { throw ValidationError("--port must be from 0 to 65535 (got \(port))") }
      if let level, LogLevel(name: level) == nil {
        throw ValidationError("--level must be one of \(LogLevel.accepted) (got \"\(level)\")")
      }
    }

    func run() throws {
      var options = LogViewer.Options()
      options.host = host ?? "127.0.0.1"
      options.port = UInt16(port)
      options.minimum = level.flatMap(LogLevel.init(name:)) ?? .debug
      options.app = app
      options.grep = grep
      options.json = json
      options.color = !json && isatty(1) == 1 && ProcessEnvironment.value("NO_COLOR") == nil
      let viewer: LogViewer
      do {
        viewer = try LogViewer(options)
      } catch {
        let place = options.host.contains(":") ? "[\(options.host)]:\(port)" : "\(options.host):\(port)"
        let reason = error.code == EADDRINUSE ? "\(place) is in use (another viewer?)" : error.description
        writeStderr("nbridge logs: \(reason)\n")
        throw ExitCode(1)
      }
      writeStderr("nbridge logs: listening on \(viewer.address)\n")
      throw ExitCode(viewer.run())
    }
  }
}
