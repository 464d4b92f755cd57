import ArgumentParser
import NBridgePlugin

/// Checks an app id given on the command line (`uninstall APP`, `open --app`, `simulate ... APP`)
/// by `AppID`'s rule before it names any file: a bad one is a usage error (exit 2) naming `what`.
func checkedAppID(_ text: String, what: String) throws -> String {
  if let problem = AppID.problem(text) {
    throw ValidationError("\(what) \(JSONValue.string(text).jsonText) is not an app id: an app id \(problem)")
  }
  return text
}
