import NBridgePlugin

/// `nbridge.shortcut`: global keyboard shortcuts that work while another program has the focus
/// (X11 key grabs on the root window).
@BridgeActor
public final class ShortcutPlugin: Plugin {
  /// `register`, `unregister`, `isRegistered`.
  public nonisolated static let definition = PluginDefinition<ShortcutPlugin>(
    service: "shortcut",
    summary: "Global keyboard shortcuts that work while another program has the focus.",
    actions: [
      Action(
        "register", options: .fields(["accelerator": .string]), result: .void,
        streams: .named("ShortcutPress", .fields(["accelerator": .string])),
        summary: "Sends each press of the accelerator to retainCallback until unregister(), then resolves."
      ) { (plugin, options: AcceleratorOptions, call, reply: Reply<JSONValue>) in
        guard call.canStream else {
          throw BridgeError.invalidParameter("retainCallback", "must be a function: register calls it on each press")
        }
        let accelerator = try Accelerator(parsing: options.accelerator)
        guard plugin.registrations[accelerator] == nil else {
          throw BridgeError.invalidParameter("accelerator", "\(accelerator.text) is registered already")
        }
        try plugin.grabber().grab(accelerator)
        plugin.registrations[accelerator] = Registration(
          press: { try? call.send(["accelerator": .string(accelerator.text)] as JSONValue) },
          end: { reply.settle(.success(.null)) })
      },
      Action(
        "unregister", options: .fields(["accelerator": .string]), result: .boolean,
        summary: "Releases the accelerator (its register call resolves); false when it was not registered."
      ) { (plugin, options: AcceleratorOptions, _) throws -> Bool in
        let accelerator = try Accelerator(parsing: options.accelerator)
        guard let registration = plugin.registrations.removeValue(forKey: accelerator) else { return false }
        plugin.keyGrabber?.release(accelerator)
        registration.end()
        return true
      },
      Action(
        "isRegistered", options: .fields(["accelerator": .string]), result: .boolean,
        summary: "Whether this app holds the accelerator."
      ) { (plugin, options: AcceleratorOptions, _) throws -> Bool in
        plugin.registrations[try Accelerator(parsing: options.accelerator)] != nil
      },
    ])

  /// A registered accelerator: what a press does, and how its call ends.
  private struct Registration {
    let press: @BridgeActor () -> Void
    let end: @BridgeActor () -> Void
  }

  private let context: PluginContext
  private var keyGrabber: X11KeyGrabber?
  private var registrations: [Accelerator: Registration] = [:]

  /// A plugin for the run `context` describes; the display is opened at the first `register`.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// Releases every grab; the pending `register` calls resolve.
  public func stop() async {
    for (accelerator, registration) in registrations {
      keyGrabber?.release(accelerator)
      registration.end()
    }
    registrations = [:]
    keyGrabber = nil
  }

  /// The X11 key grabber, opened on first use; `unavailable` saying why there is none.
  private func grabber() throws(BridgeError) -> X11KeyGrabber {
    if let keyGrabber { return keyGrabber }
    guard !context.headless else {
      throw BridgeError.unavailable("nbridge test runs without the desktop (pass --desktop): no global shortcuts")
    }
    guard let display = context.environment["DISPLAY"], !display.isEmpty else {
      if let wayland = context.environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
        throw BridgeError.unavailable(
          "global shortcuts on Wayland need the GlobalShortcuts portal, which nbridge does not use yet; under"
            + " XWayland set DISPLAY")
      }
      throw BridgeError.unavailable("no display (DISPLAY is not set): no global shortcuts")
    }
    let grabber = try X11KeyGrabber(display: display, context: context) { [weak self] accelerator in
      self?.registrations[accelerator]?.press()
    }
    keyGrabber = grabber
    return grabber
  }
}

/// `{accelerator}`.
struct AcceleratorOptions: Decodable, Sendable {
  var accelerator: String
}
