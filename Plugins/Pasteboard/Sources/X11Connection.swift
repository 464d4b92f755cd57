import CX11
import NBridgePlugin

/// One Xlib connection of the pasteboard: the display, a hidden window that receives
/// selections, the atoms it uses and XFixes' event base.
///
/// Xlib's default handlers end the process on a lost connection (and on any protocol
/// error); both are replaced, so a display that goes away marks the connection `lost`
/// and every later call on it is refused with `unavailable`. Only the loop thread uses it.
@BridgeActor
final class X11Connection {
  /// The `Display *`.
  let display: OpaquePointer
  /// The unmapped window that asks for conversions and receives their properties.
  let window: Window
  /// The `DISPLAY` it was opened with.
  let name: String
  /// `CLIPBOARD`, `UTF8_STRING`, `STRING`, `INCR` and the property conversions land in.
  let clipboard: Atom, utf8String: Atom, string: Atom, incr: Atom, property: Atom
  /// The type of XFixes' selection events, or nil when the server lacks XFixes.
  let fixesSelectionEvent: Int32?
  private let failure: IOFailure

  /// Set by Xlib's I/O error exit handler (through its user-data pointer) when the connection breaks.
  final class IOFailure {
    var failed = false
  }

  /// Opens `name`; `unavailable` with what to do when the server cannot be reached.
  init(name: String) throws(BridgeError) {
    X11Connection.installGlobalHandlers()
    guard let display = XOpenDisplay(name) else {
      throw BridgeError.unavailable(
        "cannot open X display \"\(name)\" (from DISPLAY): start the X server, or unset DISPLAY to use nbridge's shared pasteboard"
      )
    }
    self.display = display
    self.name = name
    failure = IOFailure()
    XSetIOErrorExitHandler(
      display,
      { _, data in
        // Returning (instead of Xlib's exit) leaves the Display unusable; `lost` stops all use.
        data.map { Unmanaged<IOFailure>.fromOpaque($0).takeUnretainedValue().failed = true }
      }, Unmanaged.passUnretained(failure).toOpaque())
    clipboard = XInternAtom(display, "CLIPBOARD", 0)
    utf8String = XInternAtom(display, "UTF8_STRING", 0)
    string = XInternAtom(display, "STRING", 0)
    incr = XInternAtom(display, "INCR", 0)
    property = XInternAtom(display, "NBRIDGE_CLIPBOARD", 0)
    window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
    XSelectInput(display, window, PropertyChangeMask)
    var eventBase: Int32 = 0
    var errorBase: Int32 = 0
    if XFixesQueryExtension(display, &eventBase, &errorBase) != 0 {
      fixesSelectionEvent = eventBase + XFixesSelectionNotify
      let mask = UInt(
        XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask
          | XFixesSelectionClientCloseNotifyMask)
      XFixesSelectSelectionInput(display, window, clipboard, mask)
    } else {
      fixesSelectionEvent = nil
    }
    XSync(display, 0)
    if failure.failed {
      throw BridgeError.unavailable(
        "the X display \"\(name)\" closed the connection while nbridge set up the clipboard")
    }
  }

  /// Whether the connection broke; a lost connection is never used again (Xlib cannot recover it).
  var lost: Bool { failure.failed }

  /// The connection's socket, for the loop to watch.
  var descriptor: Int32 { XConnectionNumber(display) }

  /// Sends what is buffered and waits until the server has handled it (and sent us its events).
  func sync() { if !lost { XSync(display, 0) } }

  /// Sends what is buffered without waiting.
  func flush() { if !lost { XFlush(display) } }

  /// Hands every event already received (without blocking) to `handle`.
  func pendingEvents(_ handle: (XEvent) -> Void) {
    while !lost && XPending(display) > 0 {
      var event = XEvent()
      XNextEvent(display, &event)
      if lost { return }
      handle(event)
    }
  }

  /// Asks the `CLIPBOARD` owner for its text as `target`; the answer is a `SelectionNotify` event.
  func convertClipboard(to target: Atom) {
    guard !lost else { return }
    XConvertSelection(display, clipboard, target, property, window, 0)
    XFlush(display)
  }

  /// Whether `CLIPBOARD` has an owner now (`XGetSelectionOwner`, a round trip).
  var clipboardHasOwner: Bool { !lost && XGetSelectionOwner(display, clipboard) != 0 }

  /// Leaves `CLIPBOARD` without owner (`XSetSelectionOwner` to None): the clipboard is empty,
  /// and the previous owner is told to let go.
  func disownClipboard() {
    if !lost { XSetSelectionOwner(display, clipboard, 0, 0) }
  }

  /// Reads and deletes the conversion property: its type and, for 8-bit data, its bytes;
  /// nil when it is missing or larger than `limit`.
  func takeProperty(limit: Int) -> (type: Atom, bytes: [UInt8])? {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var remaining: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let status = XGetWindowProperty(
      display, window, property, 0, limit / 4 + 1, 1, 0, &type, &format, &count, &remaining, &data)
    defer { if let data { XFree(data) } }
    guard !lost, status == Success, type != 0, remaining == 0 else { return nil }
    guard format == 8, let data else { return (type, []) }
    return (type, Array(UnsafeBufferPointer(start: data, count: Int(count))))
  }

  /// Leaves the connection: destroys the window and closes the display (a lost one is left alone,
  /// since closing it would make Xlib try the socket again).
  func close() {
    guard !lost else { return }
    XDestroyWindow(display, window)
    XCloseDisplay(display)
    failure.failed = true
  }

  /// Replaces Xlib's process-wide handlers, which print and `exit` the process.
  private static func installGlobalHandlers() {
    guard !handlersInstalled else { return }
    handlersInstalled = true
    // Protocol errors (a window that vanished mid-transfer) are reported by the failed
    // call's result; ignore them instead of exiting.
    XSetErrorHandler { _, _ in 0 }
    // Called before the exit handler above; returning lets that handler run.
    XSetIOErrorHandler { _ in 0 }
  }

  private static var handlersInstalled = false
}
