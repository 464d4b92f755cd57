import ArgumentParser
import NBridgeRuntime
import NBridgeSystem

extension NBridgeCommand {
  /// `nbridge daemon`: wakes apps for their background fetches where no systemd user manager does.
  struct Daemon: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Wake apps that are not running for their background fetches.",
      discussion: """
        Started on demand by an app that schedules a fetch when no systemd user manager answers \
        (or NBRIDGE_SCHEDULER=daemon); one per user; leaves once no schedule is left. Schedules are \
        $XDG_DATA_HOME/nbridge/fetch/<app id>.json.
        """)

    func run() throws {
      let status = FetchDaemon(environment: ProcessEnvironment.current).run()
      if status != 0 { throw ExitCode(status) }
    }
  }
}
