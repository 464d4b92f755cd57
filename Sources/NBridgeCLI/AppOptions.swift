import ArgumentParser

/// Options shared by the commands that run scripts.
struct AppOptions: ParsableArguments {
  @Option(help: "Where this app's storage, launch counts and notification history live (env NBRIDGE_DATA_DIR).")
  var dataDir: String?

  @Option(help: ArgumentHelp("Comma-separated services to allow on top of the manifest's permissions.", valueName: "list"))
  var allow: String?

  @Option(help: ArgumentHelp("Comma-separated services to deny.", valueName: "list"))
  var deny: String?

  @Option(help: ArgumentHelp("Open the app for this URL (its appUrlOpen event, getLaunchUrl); when the app runs already, hand the URL to it and exit.", valueName: "url"))
  var url: String?

  @Flag(help: "With --url: hand the URL over without making the app active.")
  var background = false

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
