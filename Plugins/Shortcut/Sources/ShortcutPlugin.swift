import NBridgePlugin

/// `nbridge.shortcut`: global keyboard shortcuts that work while another program has the focus
/// (X11 key grabs on the root window; without X11, the XDG GlobalShortcuts portal).
@BridgeActor
public final class ShortcutPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "shortcut")
  /// `register`, `unregister`, `isRegistered`.
  public nonisolated static let definition = PluginDefinition<ShortcutPlugin>(
    declaration,
    summary: "Global keyboard shortcuts that work while another program has the focus.",
    actions: [
      Action(
        "register", result: .void,
        streams: .named("ShortcutPress", .fields(["accelerator": .string])),
        summary: "Sends each press of the accelerator to retainCallback until unregister(), then resolves."
      ) { (plugin, options: AcceleratorOptions, call, reply: Reply<JSONValue>) in
        guard call.canStream else {
          throw BridgeError.invalidParameter("retainCallback", "must be a function: register calls it on each press")
        }
        let accelerator = try Accelerator(parsing: options.accelerator)
        guard plugin.registrations[accelerator] == nil, plugin.binding[accelerator] == nil else {
          throw BridgeError.invalidParameter("accelerator", "\(accelerator.text) is registered already")
        }
        let registration = Registration(
          press: { [weak plugin] in
            plugin?.wake("shortcut \(accelerator.text)")
            try? call.send(["accelerator": .string(accelerator.text)] as JSONValue)
          },
          end: { reply.settle(.success(.null)) })
        if let grabber = try plugin.x11Grabber() {
          try grabber.grab(accelerator)
          plugin.registrations[accelerator] = registration
          return
        }
        guard plugin.portalLookup != nil || plugin.hasSessionBus else {
          throw BridgeError.unavailable(plugin.noX11 ?? "no global shortcuts")
        }
        plugin.binding[accelerator] = []
        Task {
          // After the register call has settled: what isRegistered calls meanwhile wait for.
          defer {
            let held = plugin.registrations[accelerator] != nil
            for answer in plugin.binding.removeValue(forKey: accelerator) ?? [] { answer(held) }
          }
          do throws(BridgeError) {
            try await plugin.portal().bind(
              accelerator, description: "\(plugin.context.manifest.name): \(accelerator.text)")
            plugin.registrations[accelerator] = registration
          } catch {
            reply.reject(error)
          }
        }
      },
      Action(
        "unregister", result: .boolean,
        summary: "Releases the accelerator (its register call resolves); false when it was not registered."
      ) { (plugin, options: AcceleratorOptions, _, reply: Reply<Bool>) in
        let accelerator = try Accelerator(parsing: options.accelerator)
        guard let registration = plugin.registrations.removeValue(forKey: accelerator) else {
          return reply.resolve(false)
        }
        registration.end()
        guard let portal = plugin.portalLookup else {
          plugin.keyGrabber?.release(accelerator)
          return reply.resolve(true)
        }
        Task {
          await portal.value?.release(accelerator)
          reply.resolve(true)
        }
      },
      Action(
        "isRegistered", result: .boolean,
        summary: "Whether this app holds the accelerator (asked while the desktop decides, once it has)."
      ) { (plugin, options: AcceleratorOptions, _, reply: Reply<Bool>) in
        let accelerator = try Accelerator(parsing: options.accelerator)
        if plugin.registrations[accelerator] == nil, plugin.binding[accelerator] != nil {
          plugin.binding[accelerator]?.append { reply.resolve($0) }
        } else {
          reply.resolve(plugin.registrations[accelerator] != nil)
        }
      },
    ])

  /// A registered accelerator: what a press does, and how its call ends.
  private struct Registration {
    let press: @BridgeActor () -> Void
    let end: @BridgeActor () -> Void
  }

  let context: PluginContext
  private var keyGrabber: X11KeyGrabber?
  /// The GlobalShortcuts portal, looked up once when X11 is not there (nil: none answers).
  private var portalLookup: Task<PortalGlobalShortcuts?, Never>?
  /// Why X11 has no key grabs for this run, once `x11Grabber` found out.
  private var noX11: String?
  private var registrations: [Accelerator: Registration] = [:]
  /// The accelerators the portal is binding (the desktop may be asking the user), with the
  /// answers of the `isRegistered` calls waiting for the outcome.
  private var binding: [Accelerator: [@BridgeActor (Bool) -> Void]] = [:]

  /// A plugin for the run `context` describes; the display (or the portal) is opened at the first `register`.
  public init(context: PluginContext) throws {
    self.context = context
  }

  /// Releases every grab and closes every portal session; the pending `register` calls resolve.
  public func stop() async {
    let held = registrations
    registrations = [:]
    for (accelerator, registration) in held {
      keyGrabber?.release(accelerator)
      await portalLookup?.value?.release(accelerator)
      registration.end()
    }
    keyGrabber = nil
  }

  /// The X11 key grabber, opened on first use; nil when X11 is not there (no `DISPLAY`, or it
  /// does not open): then the portal is tried. `unavailable` under `nbridge test`.
  private func x11Grabber() throws(BridgeError) -> X11KeyGrabber? {
    if let keyGrabber { return keyGrabber }
    guard !context.headless else {
      throw BridgeError.unavailable("nbridge test runs without the desktop (pass --desktop): no global shortcuts")
    }
    if noX11 != nil { return nil }
    guard let display = context.environment["DISPLAY"], !display.isEmpty else {
      if let wayland = context.environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
        noX11 =
          "global shortcuts on Wayland need the GlobalShortcuts portal, and none answers on the session bus"
          + " (under XWayland set DISPLAY)"
      } else {
        noX11 = "no display (DISPLAY is not set) and no GlobalShortcuts portal on the session bus: no global shortcuts"
      }
      return nil
    }
    do throws(BridgeError) {
      let grabber = try X11KeyGrabber(display: display, context: context) { [weak self] accelerator in
        self?.registrations[accelerator]?.press()
      }
      keyGrabber = grabber
      return grabber
    } catch {
      noX11 = "\(error.message), and no GlobalShortcuts portal answers on the session bus"
      return nil
    }
  }

  /// How long a press keeps an app in background awake.
  static let wakeSeconds = 5.0

  /// A press is the user reaching for the app: an app in background (its window hidden) is kept
  /// awake for `wakeSeconds`, so its callback runs and what it asks is answered, instead of
  /// waiting, suspended, for a window the user cannot reach.
  private func wake(_ reason: String) {
    let hold = context.lifecycle.holdAwake(reason)
    _ = context.setTimer(after: Self.wakeSeconds) { hold.release() }
  }

  /// Whether the run has a session bus to look for the portal on.
  private var hasSessionBus: Bool {
    guard let address = context.environment["DBUS_SESSION_BUS_ADDRESS"] else { return false }
    return !address.isEmpty && !address.hasPrefix("disabled:")
  }

  /// The GlobalShortcuts portal; `unavailable` saying why X11 and the portal are both missing.
  private func portal() async throws(BridgeError) -> PortalGlobalShortcuts {
    if portalLookup == nil {
      let address = context.environment["DBUS_SESSION_BUS_ADDRESS"]
      let mainContext = context.glibMainContext
      portalLookup = Task { [weak self] in
        await PortalGlobalShortcuts.connect(address: address, mainContext: mainContext) { accelerator in
          self?.registrations[accelerator]?.press()
        }
      }
    }
    guard let portal = await portalLookup?.value else {
      throw BridgeError.unavailable(noX11 ?? "no GlobalShortcuts portal answers on the session bus")
    }
    return portal
  }
}

/// `{accelerator}`.
struct AcceleratorOptions: Decodable, Sendable {
  var accelerator: String
}
