import Dispatch
import NBridgePlugin
import NBridgeSystem

/// The desktop's side of `app`: `openBrowser` (the user's browser), `goSettings` (GNOME
/// Settings' page for the app) and `share` (the mail composer, Linux having no share sheet).
/// Each settles once the program has been started or found missing (`unavailable`).
extension AppPlugin {
  nonisolated static let desktopActions: [Action<AppPlugin>] = [
    Action(
      "openBrowser", result: .fields(["completed": .boolean]),
      summary: "Opens an http(s) URL in the user's browser (as openURL does); any other scheme is invalid_parameter."
    ) { (plugin, options: URLOptions, _) async throws in
      let scheme = options.url.prefix { $0 != ":" }.lowercased()
      guard scheme == "http" || scheme == "https" else {
        throw BridgeError.invalidParameter("url", "must be an http or https URL, got \(QuotedValue.text(options.url))")
      }
      return try await plugin.open(options.url, action: "openBrowser")
    },
    Action(
      "goSettings",
      options: .fields(["type?": .oneOf([.literal("normal"), .literal("push"), .literal("location")])]),
      result: .named("SettingsOpened", .fields(["completed": .boolean, "panel": .string])),
      summary:
        "Opens GNOME Settings on the app's page (normal), notifications (push) or location; unavailable elsewhere."
    ) { (plugin, options: SettingsOptions, _) in
      let arguments = DesktopHandOff.settings(type: options.type, appID: plugin.context.manifest.id)
      try plugin.startDetached(arguments, what: "GNOME Settings")
      return ["completed": true, "panel": .string(arguments[1])] as JSONValue
    },
    Action(
      "share",
      result: .named("ShareResult", .fields(["completed": .boolean, "method": .literal("email")])),
      summary: "Hands the text (and URL) to the mail composer (xdg-email), the title as the subject."
    ) { (plugin, options: ShareOptions, _) async throws in
      let status = try await plugin.runToEnd(DesktopHandOff.share(options), what: "a mail composer")
      if status != 0 { plugin.context.warn("share: xdg-email exited with status \(status)") }
      return ["completed": .bool(status == 0), "method": "email"] as JSONValue
    },
  ]

  /// Opens `url` the way `openURL` does (an installed app claiming it, else `xdg-open`; only
  /// installed apps when the run has no desktop); whether something took it.
  func open(_ url: String, action: String) async throws(BridgeError) -> JSONValue {
    let desktop =
      !context.headless
      && (context.environment["DISPLAY"] != nil || context.environment["WAYLAND_DISPLAY"] != nil)
    let status = try await runOpen(["open", url] + (desktop ? [] : ["--apps-only"]))
    if status != 0 {
      context.warn(
        "\(action): nothing opened \(url)\(desktop ? "" : " (no desktop: only installed nbridge apps open URLs)")")
    }
    return ["completed": .bool(status == 0)]
  }

  /// The program of `arguments` on the run's `PATH`, when the run may use the desktop;
  /// `unavailable` naming what is missing otherwise.
  private func desktopProgram(_ arguments: [String], what: String) throws(BridgeError) -> String {
    if let missing = DesktopHandOff.missingDesktop(headless: context.headless, environment: context.environment) {
      throw BridgeError.unavailable("cannot open \(what): \(missing)")
    }
    guard let program = Spawn.locate(arguments[0], path: context.environment["PATH"] ?? "/usr/bin:/bin") else {
      throw BridgeError.unavailable("cannot open \(what): \(arguments[0]) is not installed")
    }
    return program
  }

  /// Starts `arguments` in a session of its own, not waited for (a settings window stays open
  /// as long as the user likes); it is reaped on another thread when it ends.
  func startDetached(_ arguments: [String], what: String) throws(BridgeError) {
    let program = try desktopProgram(arguments, what: what)
    let pid: Int32
    do {
      pid = try Spawn.start(
        [program] + arguments.dropFirst(), environment: context.environment, output: .discard, newSession: true)
    } catch {
      throw BridgeError.unavailable("cannot start \(arguments[0]): \(error)")
    }
    DispatchQueue.global().async { _ = Spawn.wait(pid) }
  }

  /// Runs `arguments` to its end (off the loop); its exit status.
  func runToEnd(_ arguments: [String], what: String) async throws(BridgeError) -> Int32 {
    let program = try desktopProgram(arguments, what: what)
    let pid: Int32
    do {
      pid = try Spawn.start([program] + arguments.dropFirst(), environment: context.environment, output: .discard)
    } catch {
      throw BridgeError.unavailable("cannot start \(arguments[0]): \(error)")
    }
    return await withCheckedContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(returning: Spawn.wait(pid)) }
    }
  }
}
