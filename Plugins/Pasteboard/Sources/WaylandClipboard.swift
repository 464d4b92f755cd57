import NBridgeSystem
import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// The general pasteboard on Wayland (experimental), through wl-clipboard's tools, which
/// need the compositor's data-control protocol: `wl-paste` reads, `wl-copy` writes (and,
/// forking to the background, serves the text after this process exits), and
/// `wl-paste --watch` reports each change with one line on a pipe the loop watches.
///
/// The change count counts the changes seen since the watcher started, which is on first
/// use; a change this process makes is counted when the watcher reports it, a moment
/// after `setString` resolves.
@BridgeActor
final class WaylandClipboard: ClipboardBackend {
  private let context: PluginContext
  private let environment: [String: String]
  private var watcher: HelperProcess.Running?
  private var watcherPipe: DescriptorWatch?
  private var seen = 0
  private var sawFirstLine = false
  private var handler: (@BridgeActor (Int) -> Void)?

  /// The clipboard of the Wayland display `displayName`.
  init(displayName: String, context: PluginContext) {
    self.context = context
    var environment = context.environment
    environment["WAYLAND_DISPLAY"] = displayName
    self.environment = environment
  }

  func string() async throws -> String? {
    try startWatcher()
    let outcome = try await run(["wl-paste", "--no-newline", "--type", "text"])
    if outcome.status == 0 { return String(decoding: outcome.output, as: UTF8.self) }
    if outcome.errors.contains("Nothing is copied") || outcome.errors.contains("No selection")
      || outcome.errors.contains("No suitable type")
    {
      return nil
    }
    throw failure("wl-paste", outcome)
  }

  func setString(_ text: String) async throws {
    try startWatcher()
    let outcome = try await run(
      ["wl-copy", "--type", "text/plain;charset=utf-8"], input: Array(text.utf8), capture: false)
    guard outcome.status == 0 else { throw failure("wl-copy", outcome) }
  }

  func clear() async throws {
    try startWatcher()
    let outcome = try await run(["wl-copy", "--clear"], capture: false)
    guard outcome.status == 0 else { throw failure("wl-copy --clear", outcome) }
  }

  func changeCount() throws -> Int {
    try startWatcher()
    return seen
  }

  func observe(_ handler: (@BridgeActor (Int) -> Void)?) throws {
    self.handler = handler
    if handler != nil { try startWatcher() }
  }

  func close() {
    watcherPipe?.cancel()
    watcherPipe = nil
    guard let watcher else { return }
    kill(watcher.pid, SIGTERM)
    Glibc.close(watcher.stdout)
    Glibc.close(watcher.stderr)
    _ = watcher.reap()
    self.watcher = nil
  }

  /// Starts `wl-paste --watch echo`, which prints a line now and one per change.
  private func startWatcher() throws {
    guard watcher == nil else { return }
    let started: HelperProcess.Running
    do {
      started = try HelperProcess.start(["wl-paste", "--watch", "echo", "change"], environment: environment)
    } catch {
      throw missingTools(error)
    }
    watcher = started
    watcherPipe = context.watchReadable(started.stdout) { [weak self] in self?.watcherSpoke() }
  }

  private func watcherSpoke() {
    guard let watcher else { return }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let n = buffer.withUnsafeMutableBytes { Glibc.read(watcher.stdout, $0.baseAddress, $0.count) }
    guard n > 0 else {
      context.warn("wl-paste --watch stopped: Wayland clipboard change events stopped")
      return close()
    }
    for byte in buffer[..<n] where byte == UInt8(ascii: "\n") {
      // The first line describes the clipboard as it was when the watcher started.
      if !sawFirstLine {
        sawFirstLine = true
        continue
      }
      seen += 1
      handler?(seen)
    }
  }

  /// Runs a tool to its end; `wl-copy` must not be captured, since its background half
  /// would hold our pipes open for as long as it serves the text.
  private func run(_ arguments: [String], input: [UInt8] = [], capture: Bool = true) async throws
    -> HelperProcess.Outcome
  {
    do {
      return try await HelperProcess.run(arguments, input: input, environment: environment, capture: capture)
    } catch {
      throw missingTools(error)
    }
  }

  private func missingTools(_ error: SystemError) -> BridgeError {
    if error.code == ENOENT {
      return BridgeError.unavailable(
        "the Wayland clipboard needs wl-clipboard: install it (apt-get install wl-clipboard)")
    }
    return BridgeError.unavailable("cannot start wl-clipboard: \(error)")
  }

  private func failure(_ tool: String, _ outcome: HelperProcess.Outcome) -> BridgeError {
    let detail = outcome.errors.split(separator: "\n").first.map(String.init) ?? "exit \(outcome.status)"
    return BridgeError.unavailable("\(tool) failed on the Wayland clipboard: \(detail)")
  }
}
