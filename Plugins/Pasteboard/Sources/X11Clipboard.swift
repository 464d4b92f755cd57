import CX11
import NBridgePlugin

#if canImport(Glibc)
  import Glibc
#endif

/// The general pasteboard on X11: the `CLIPBOARD` selection of `DISPLAY`.
///
/// Reading converts the selection to `UTF8_STRING` (falling back to `STRING`) and waits for
/// the owner's answer on the loop, following the `INCR` protocol for large text. Writing
/// hands the text to `xclip`, which owns the selection and serves it after this process
/// exits, as `xclip -i` does from a shell. Changes arrive as XFixes selection events on the
/// connection's socket, which the loop watches while a listener or a read needs it; in
/// between they wait in the socket and are counted on the next call.
@BridgeActor
final class X11Clipboard: ClipboardBackend {
  /// How long the selection owner has to answer a read.
  static let answerTimeout = 3.0

  private let displayName: String
  private let context: PluginContext
  private var connection: X11Connection?
  private var socketWatch: DescriptorWatch?
  private var seen = 0
  private var handler: (@BridgeActor (Int) -> Void)?
  private var read: SelectionRead?
  private var readTask: Task<String?, any Error>?
  private var changeWaiters: [(after: Int, continuation: CheckedContinuation<Bool, Never>, timer: LoopTimer)] = []
  private var pumping = false

  /// The clipboard of the X display `displayName`; connects on first use.
  init(displayName: String, context: PluginContext) {
    self.displayName = displayName
    self.context = context
  }

  func string() async throws -> String? {
    if let readTask { return try await readTask.value }
    let task = Task { try await self.convert() }
    readTask = task
    defer { readTask = nil }
    return try await task.value
  }

  func setString(_ text: String) async throws {
    let connection = try connected()
    try settle(connection)
    let before = seen
    let outcome = try await runXclip(input: Array(text.utf8))
    guard outcome.status == 0 else {
      throw BridgeError.unavailable(
        "xclip could not take the X11 clipboard of \"\(displayName)\" (exit \(outcome.status))")
    }
    // xclip 0.13 exits before its ownership request reaches the server (its background half
    // sends it); resolve once the server reports the new owner, so a read right after sees it.
    try settle(connection)
    guard await changed(after: before) else {
      throw BridgeError.unavailable("xclip did not take the X11 clipboard of \"\(displayName)\" within 2 s")
    }
  }

  func clear() throws {
    let connection = try connected()
    connection.disownClipboard()
    try settle(connection)
  }

  func changeCount() throws -> Int {
    try settle(try connected())
    return seen
  }

  func observe(_ handler: (@BridgeActor (Int) -> Void)?) throws {
    self.handler = handler
    guard handler != nil else { return updateWatch() }
    let connection = try connected()
    guard connection.fixesSelectionEvent != nil else {
      self.handler = nil
      throw BridgeError.unavailable(
        "the X server \"\(displayName)\" lacks the XFixes extension: no clipboard change events")
    }
    updateWatch()
  }

  func close() {
    fail(BridgeError.unavailable("the run ended"))
    resumeWaiters(timedOut: true)
    handler = nil
    dropConnection()
  }

  // MARK: Connection

  /// The open connection, opened now if needed; `unavailable` when the display cannot be reached.
  private func connected() throws(BridgeError) -> X11Connection {
    if let connection, !connection.lost { return connection }
    dropConnection()
    let opened = try X11Connection(name: displayName)
    connection = opened
    updateWatch()
    return opened
  }

  /// Stops watching the socket, then closes the connection (a lost one is only forgotten).
  private func dropConnection() {
    socketWatch?.cancel()
    socketWatch = nil
    connection?.close()
    connection = nil
  }

  /// Flushes requests, waits for the server, and handles what arrived.
  private func settle(_ connection: X11Connection) throws(BridgeError) {
    connection.sync()
    pump()
    if connection.lost { throw lostError }
  }

  /// Watches the socket while someone waits for events: a listener or a read in flight.
  private func updateWatch() {
    let needed = connection != nil && (handler != nil || read != nil || !changeWaiters.isEmpty)
    if needed, socketWatch == nil, let connection {
      socketWatch = context.watchReadable(connection.descriptor) { [weak self] in self?.pump() }
    } else if !needed, let socketWatch {
      socketWatch.cancel()
      self.socketWatch = nil
    }
  }

  /// Handles every event Xlib has; re-entered calls (a listener calling `changeCount`) leave it to the outer loop.
  private func pump() {
    guard !pumping, let connection else { return }
    pumping = true
    connection.pendingEvents { handle($0, on: connection) }
    pumping = false
    if connection.lost {
      fail(lostError)
      resumeWaiters(timedOut: true)
      dropConnection()
      if handler != nil { context.warn("lost the X display \"\(displayName)\": clipboard change events stopped") }
    }
  }

  private func runXclip(input: [UInt8]) async throws(BridgeError) -> HelperProcess.Outcome {
    do {
      return try await HelperProcess.run(
        ["xclip", "-selection", "clipboard", "-i"], input: input, environment: helperEnvironment)
    } catch {
      if error.code == ENOENT {
        throw BridgeError.unavailable("copying to the X11 clipboard needs xclip: install it (apt-get install xclip)")
      }
      throw BridgeError.unavailable("cannot start xclip: \(error)")
    }
  }

  private var lostError: BridgeError {
    BridgeError.unavailable("lost the connection to X display \"\(displayName)\"")
  }

  private var helperEnvironment: [String: String] {
    var environment = context.environment
    environment["DISPLAY"] = displayName
    return environment
  }

  // MARK: Events

  private func handle(_ event: XEvent, on connection: X11Connection) {
    let type = event.type
    if type == connection.fixesSelectionEvent {
      seen += 1
      resumeWaiters(timedOut: false)
      handler?(seen)
    } else if type == SelectionNotify && event.xselection.requestor == connection.window {
      selectionArrived(event.xselection, on: connection)
    } else if type == PropertyNotify && event.xproperty.window == connection.window
      && event.xproperty.atom == connection.property && event.xproperty.state == PropertyNewValue
    {
      chunkArrived(on: connection)
    }
  }

  /// Waits (on the loop, up to 2 s) until the count passes `count`; whether it did.
  private func changed(after count: Int) async -> Bool {
    if seen > count { return true }
    return await withCheckedContinuation { continuation in
      let timer = context.setTimer(after: 2) { [weak self] in self?.resumeWaiters(timedOut: true) }
      changeWaiters.append((count, continuation, timer))
      updateWatch()
    }
  }

  private func resumeWaiters(timedOut: Bool) {
    let (done, waiting) = (
      changeWaiters.filter { timedOut || $0.after < seen }, changeWaiters.filter { !timedOut && $0.after >= seen }
    )
    changeWaiters = waiting
    for waiter in done {
      waiter.timer.cancel()
      waiter.continuation.resume(returning: waiter.after < seen)
    }
    if !done.isEmpty { updateWatch() }
  }

  // MARK: Reading

  /// A conversion in flight: what was asked for, the text gathered so far, and who waits.
  private struct SelectionRead {
    var target: Atom
    var incremental = false
    var bytes: [UInt8] = []
    var continuation: CheckedContinuation<String?, any Error>
    var timer: LoopTimer
  }

  /// Asks the owner for the text and waits for it.
  private func convert() async throws -> String? {
    let connection = try connected()
    try settle(connection)
    return try await withCheckedThrowingContinuation { continuation in
      let timer = context.setTimer(after: X11Clipboard.answerTimeout) { [weak self] in
        self?.fail(
          BridgeError(.timeout, "the X11 clipboard's owner did not answer within \(Int(X11Clipboard.answerTimeout)) s"))
      }
      read = SelectionRead(target: connection.utf8String, continuation: continuation, timer: timer)
      updateWatch()
      request(connection.utf8String, on: connection)
    }
  }

  private func request(_ target: Atom, on connection: X11Connection) {
    connection.convertClipboard(to: target)
    // Xlib reads whatever has arrived while it flushes; such events never make the socket readable again.
    pump()
  }

  private func selectionArrived(_ event: XSelectionEvent, on connection: X11Connection) {
    guard var current = read, !current.incremental else { return }
    if event.property == 0 {
      // Refused: no owner, or no such target. Try Latin-1 `STRING` once before giving up.
      if connection.clipboardHasOwner && current.target == connection.utf8String {
        current.target = connection.string
        read = current
        request(connection.string, on: connection)
      } else {
        finish(.success(nil))
      }
      return
    }
    guard let property = connection.takeProperty(limit: maxTextBytes) else {
      return finish(.failure(tooLarge))
    }
    if property.type == connection.incr {
      // Deleting the property (done by takeProperty) tells the owner to send the first chunk.
      current.incremental = true
      read = current
    } else {
      finish(.success(text(property.bytes, as: current.target, on: connection)))
    }
  }

  private func chunkArrived(on connection: X11Connection) {
    guard var current = read, current.incremental else { return }
    guard let chunk = connection.takeProperty(limit: maxTextBytes) else { return finish(.failure(tooLarge)) }
    if chunk.bytes.isEmpty {
      return finish(.success(text(current.bytes, as: current.target, on: connection)))
    }
    current.bytes += chunk.bytes
    guard current.bytes.count <= maxTextBytes else { return finish(.failure(tooLarge)) }
    read = current
  }

  private var tooLarge: BridgeError {
    BridgeError.unavailable("the X11 clipboard holds more than 16 MiB of text, more than nbridge reads")
  }

  private func text(_ bytes: [UInt8], as target: Atom, on connection: X11Connection) -> String {
    if target == connection.string {
      return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private func finish(_ result: Result<String?, any Error>) {
    guard let current = read else { return }
    read = nil
    current.timer.cancel()
    current.continuation.resume(with: result)
    updateWatch()
  }

  private func fail(_ error: BridgeError) { finish(.failure(error)) }
}
