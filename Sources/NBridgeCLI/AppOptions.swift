import ArgumentParser

/// Options shared by the commands that run scripts.
struct AppOptions: ParsableArguments {
  @Option(help: "Where this app's storage, launch counts and notification history live (env NBRIDGE_DATA_DIR).")
  var dataDir: String?

  @Option(help: ArgumentHelp("Comma-separated services to allow on top of the manifest's permissions.", valueName: "list"))
  var allow: String?

  @Option(help: ArgumentHelp("Comma-separated services to deny.", valueName: "list"))
  var deny: String?

  @Option(help: ArgumentHelp("The least level nbridge.log prints: debug, info, warn, error (default: the manifest's log.level, else debug).", valueName: "level"))
  var logLevel: String?

  @Option(help: ArgumentHelp("Forward nbridge.log records and console output to 'nbridge logs' at HOST:PORT (:2532 is loopback; env NBRIDGE_LOG_TO).", valueName: "host:port"))
  var logTo: String?

  @Option(help: ArgumentHelp("Records kept for the viewer until it acknowledges them (default 10000; the oldest go first).", valueName: "n"))
  var logQueue: Int?

  @Option(help: ArgumentHelp("Open the app for this URL (its appUrlOpen event, getLaunchUrl); when the app runs already, hand the URL to it and exit.", valueName: "url"))
  var url: String?

  @Flag(help: "Start in background (run; an autostart entry does); with --url: hand the URL over without making the app active.")
  var background = false

  @Flag(help: "Start another instance even when the app runs already (env NBRIDGE_NEW_INSTANCE=1); otherwise the launch hands its arguments to the running one and exits 0.")
  var newInstance = false

  var allowed: [String] { split(allow) }
  var denied: [String] { split(deny) }

  private func split(_ list: String?) -> [String] {
    (list ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
  }
}

extension String {
  var trimmingSpaces: String {
    var s = Substring(self)
    while s.first == " " { s = s.dropFirst() }
    while s.last == " " { s = s.dropLast() }
    return String(s)
  }
}
