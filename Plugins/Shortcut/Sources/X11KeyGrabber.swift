import CX11
import NBridgePlugin

/// Global shortcuts on X11: key grabs on the root window over a display connection of their own,
/// whose key presses are read on the loop (a descriptor watch, no thread).
@BridgeActor
final class X11KeyGrabber {
  private struct Grab {
    let keycode: Int32
    let mask: UInt32
  }

  private let display: OpaquePointer
  private var watch: DescriptorWatch?
  private var grabs: [Accelerator: Grab] = [:]
  private let pressed: @BridgeActor (Accelerator) -> Void

  /// Connects to `name` (`DISPLAY`); `pressed` gets each grabbed key pressed. `unavailable` when
  /// the display cannot be opened.
  init(display name: String, context: PluginContext, pressed: @escaping @BridgeActor (Accelerator) -> Void)
    throws(BridgeError)
  {
    guard let display = XOpenDisplay(name) else {
      throw BridgeError.unavailable("cannot open the X display \(name) for global shortcuts")
    }
    self.display = display
    self.pressed = pressed
    watch = context.watchReadable(XConnectionNumber(display)) { [weak self] in self?.drain() }
  }

  isolated deinit {
    watch?.cancel()
    XCloseDisplay(display)
  }

  /// Grabs `accelerator`; `unavailable` naming it when another program holds it (X's BadAccess).
  func grab(_ accelerator: Accelerator) throws(BridgeError) {
    let keysym = XStringToKeysym(accelerator.keysym)
    let keycode = Int32(XKeysymToKeycode(display, keysym))
    guard keysym != 0, keycode != 0 else {
      throw BridgeError.unavailable("the keyboard has no \(accelerator.key) key (keysym \(accelerator.keysym))")
    }
    let error = nbridge_x11_grab_key(display, keycode, accelerator.x11Mask)
    drain()
    guard error == 0 else {
      if error == BadAccess {
        throw BridgeError.unavailable("\(accelerator.text) is taken: another program holds it as a global shortcut")
      }
      throw BridgeError.unavailable("the X server refused \(accelerator.text) (X error \(error))")
    }
    grabs[accelerator] = Grab(keycode: keycode, mask: accelerator.x11Mask)
  }

  /// Releases `accelerator` (not grabbed is fine).
  func release(_ accelerator: Accelerator) {
    guard let grab = grabs.removeValue(forKey: accelerator) else { return }
    nbridge_x11_ungrab_key(display, grab.keycode, grab.mask)
  }

  private func drain() {
    let ignored = nbridge_x11_lock_modifiers()
    while XPending(display) > 0 {
      var event = XEvent()
      XNextEvent(display, &event)
      guard event.type == KeyPress else { continue }
      let key = event.xkey
      let mask = key.state & ~ignored
      for (accelerator, grab) in grabs where grab.keycode == Int32(key.keycode) && grab.mask == mask {
        pressed(accelerator)
      }
    }
  }
}
