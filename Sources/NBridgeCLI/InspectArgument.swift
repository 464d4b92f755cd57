import NBridgeAppSetup
import NBridgeRuntime

/// `--inspect=HOST:PORT`, the spelling Node and Deno use, taken as `--inspect-server HOST:PORT`
/// (the argument parser has no option whose value is optional); a plain `--inspect` stays a flag.
enum InspectArgument {
  /// `arguments` with `--inspect=X` written `--inspect-server X` (up to a `--`).
  static func spelledApart(_ arguments: [String]) -> [String] {
    var out: [String] = []
    var passed = false
    for argument in arguments {
      if argument == "--" { passed = true }
      if !passed, argument.hasPrefix("--inspect=") {
        out += ["--inspect-server", String(argument.dropFirst("--inspect=".count))]
      } else {
        out.append(argument)
      }
    }
    return out
  }

  /// Why `address` cannot be the inspector server's; nil when it can. Loopback only: whoever
  /// reaches the inspector drives the page, and the page holds the bridge.
  static func problem(_ address: String) -> String? {
    guard let host = DevServerURL.host(of: address) else {
      return "--inspect=HOST:PORT needs a host and a port, such as --inspect=127.0.0.1:9222 (got \"\(address)\")"
    }
    guard DevServerURL.isLoopback(host) else {
      return "--inspect=HOST:PORT takes a loopback host (127.0.0.1, localhost, [::1]); \"\(host)\" is not: whoever reaches the inspector drives the page (use an SSH tunnel to inspect from another machine)"
    }
    return nil
  }
}
