/// The systemd user service that wakes an app for a background fetch (`nbridge-fetch-<id>.service`),
/// as the background plugin writes it at run time and as `nbridge bundle` ships it in a package
/// (`/usr/lib/systemd/user`): one text for both, so the app can tell whether the packaged one
/// already runs its command.
package enum SystemdFetchUnits {
  /// Where a package's user units are: `/usr/lib/systemd/user`.
  package static let packagedFolder = "/usr/lib/systemd/user"

  /// The `.service` text that runs `arguments` with `environment` (name, value pairs).
  package static func service(appID: String, arguments: [String], environment: [(key: String, value: String)])
    -> String
  {
    var text = """
      [Unit]
      Description=nbridge background fetch for \(appID)

      [Service]
      Type=oneshot

      """
    for (name, value) in environment { text += "Environment=\(quoted("\(name)=\(value)"))\n" }
    text += "ExecStart=\(arguments.map(quoted).joined(separator: " "))\n"
    return text
  }

  /// What a user's drop-in (`<unit>.service.d/run.conf`) adds to the packaged service so it runs
  /// `arguments` with `environment`: the variables, and the command when it is not the packaged
  /// one; nil when the packaged service runs exactly that.
  package static func dropIn(
    packaged: String, appID: String, arguments: [String], environment: [(key: String, value: String)]
  ) -> String? {
    let ownCommand = service(appID: appID, arguments: arguments, environment: [])
    guard packaged != service(appID: appID, arguments: arguments, environment: environment) else { return nil }
    var text = "[Service]\n"
    for (name, value) in environment { text += "Environment=\(quoted("\(name)=\(value)"))\n" }
    if packaged != ownCommand { text += "ExecStart=\nExecStart=\(arguments.map(quoted).joined(separator: " "))\n" }
    return text
  }

  /// An argument as systemd reads it: double-quoted, with `\`, `"`, `%` and `$` escaped, when needed.
  package static func quoted(_ word: String) -> String {
    let special: Set<Character> = [" ", "\t", "\"", "'", "\\", "%", "$", ";"]
    guard word.contains(where: { special.contains($0) }) || word.isEmpty else { return word }
    var out = "\""
    for c in word {
      switch c {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "%": out += "%%"
      case "$": out += "$$"
      default: out.append(c)
      }
    }
    return out + "\""
  }
}
