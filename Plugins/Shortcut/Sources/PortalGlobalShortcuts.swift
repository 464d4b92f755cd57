import NBridgeDBus
import NBridgePlugin

/// Global shortcuts through the XDG desktop portal (`org.freedesktop.portal.GlobalShortcuts` on
/// the session bus): what a Wayland desktop offers instead of key grabs. Each accelerator gets a
/// session of its own (`CreateSession`), bound with `BindShortcuts` to the accelerator written as
/// the portal's shortcuts specification writes keys (`CTRL+ALT+k`); the desktop may ask the user,
/// and its `Activated` signal for that session is a press. Closing the session
/// (`org.freedesktop.portal.Session.Close`) releases the accelerator.
@BridgeActor
final class PortalGlobalShortcuts {
  static let busName = "org.freedesktop.portal.Desktop"
  static let objectPath = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.GlobalShortcuts"
  /// How long a request may wait for the desktop's answer (the user may be asked).
  static let answerTimeout: Int32 = 120_000

  private let bus: DBusConnection
  private var sessions: [Accelerator: String] = [:]
  private var tokens = 0
  private let pressed: @BridgeActor (Accelerator) -> Void

  private init(bus: DBusConnection, pressed: @escaping @BridgeActor (Accelerator) -> Void) {
    self.bus = bus
    self.pressed = pressed
    bus.subscribe(interface: Self.interface, path: Self.objectPath) { [weak self] signal, arguments in
      guard let self, signal == "Activated", let session = arguments.members.first?.string else { return }
      for (accelerator, handle) in self.sessions where handle == session { self.pressed(accelerator) }
    }
  }

  /// The portal on the session bus at `address`, when one answers with its GlobalShortcuts
  /// `version` within 2 s; nil when there is no bus or no such portal.
  static func connect(
    address: String?, mainContext: OpaquePointer?, pressed: @escaping @BridgeActor (Accelerator) -> Void
  ) async -> PortalGlobalShortcuts? {
    guard let address, !address.isEmpty, !address.hasPrefix("disabled:"),
      let bus = try? await DBusConnection.connect(address: address, mainContext: mainContext, timeout: 2_000)
    else { return nil }
    let version = try? await bus.call(
      busName, path: objectPath, interface: "org.freedesktop.DBus.Properties", method: "Get",
      arguments: .tuple([.string(interface), .string("version")]), timeout: 2_000, autoStart: true)
    guard version != nil else {
      bus.disconnect()
      return nil
    }
    return PortalGlobalShortcuts(bus: bus, pressed: pressed)
  }

  /// Binds `accelerator` in a session of its own: `permission_denied` when the desktop (or its
  /// user) refuses it, `unavailable` when the portal fails.
  func bind(_ accelerator: Accelerator, description: String) async throws(BridgeError) {
    let created = try await request("CreateSession", for: accelerator) { token in
      .tuple([.dictionary(["handle_token": .string(token), "session_handle_token": .string(token)])])
    }
    guard let session = created["session_handle"]?.string else {
      throw .unavailable("the GlobalShortcuts portal made no session for \(accelerator.text)")
    }
    do throws(BridgeError) {
      let bound = try await request("BindShortcuts", for: accelerator) { token in
        .tuple([
          .objectPath(session),
          .array(
            "(sa{sv})",
            [
              .tuple([
                .string(accelerator.text),
                .dictionary([
                  "description": .string(description), "preferred_trigger": .string(accelerator.portalTrigger),
                ]),
              ])
            ]),
          .string(""), .dictionary(["handle_token": .string(token)]),
        ])
      }
      let ids = (bound["shortcuts"]?.elements ?? []).compactMap { $0.members.first?.string }
      guard ids.contains(accelerator.text) else {
        throw BridgeError(.permissionDenied, "the desktop did not bind \(accelerator.text) (GlobalShortcuts portal)")
      }
    } catch {
      await close(session)
      throw error
    }
    sessions[accelerator] = session
  }

  /// Releases `accelerator`: closes its session (not bound is fine).
  func release(_ accelerator: Accelerator) async {
    guard let session = sessions.removeValue(forKey: accelerator) else { return }
    await close(session)
  }

  private func close(_ session: String) async {
    _ = try? await bus.call(
      Self.busName, path: session, interface: "org.freedesktop.portal.Session", method: "Close", timeout: 2_000)
  }

  /// Calls `method` with the arguments `arguments(token)` builds, and waits for its request's
  /// `Response`: its results when the response is 0 (granted); `permission_denied` when the
  /// desktop answers 1 (the user said no), `unavailable` otherwise.
  private func request(
    _ method: String, for accelerator: Accelerator, arguments: (String) -> DBusValue
  ) async throws(BridgeError) -> [String: DBusValue] {
    tokens += 1
    let token = "nbridge_shortcut\(tokens)"
    let sender = String(bus.uniqueName.dropFirst().map { $0 == "." ? "_" : $0 })
    let path = "\(Self.objectPath)/request/\(sender)/\(token)"
    let call = arguments(token)
    let bus = self.bus
    var subscription: UInt32 = 0
    let outcome: Result<(UInt32, [String: DBusValue]), DBusError> = await withCheckedContinuation { continuation in
      var pending: CheckedContinuation<Result<(UInt32, [String: DBusValue]), DBusError>, Never>? = continuation
      let finish: @BridgeActor (Result<(UInt32, [String: DBusValue]), DBusError>) -> Void = { value in
        pending?.resume(returning: value)
        pending = nil
      }
      subscription = bus.subscribe(interface: "org.freedesktop.portal.Request", path: path) { signal, arguments in
        guard signal == "Response", let code = arguments.members.first?.uint32 else { return }
        finish(.success((code, arguments.members.last?.dictionary ?? [:])))
      }
      Task {
        do throws(DBusError) {
          _ = try await bus.call(
            Self.busName, path: Self.objectPath, interface: Self.interface, method: method, arguments: call,
            timeout: Self.answerTimeout)
        } catch {
          finish(.failure(error))
        }
      }
    }
    bus.unsubscribe(subscription)
    switch outcome {
    case .success((0, let results)): return results
    case .success((1, _)):
      throw BridgeError(
        .permissionDenied, "the desktop refused \(accelerator.text) (GlobalShortcuts portal, \(method))")
    case .success((let code, _)):
      throw .unavailable("the GlobalShortcuts portal ended \(method) for \(accelerator.text) (response \(code))")
    case .failure(let error) where error.name == "org.freedesktop.DBus.Error.AccessDenied":
      throw BridgeError(
        .permissionDenied, "the GlobalShortcuts portal refused \(accelerator.text): \(error.remoteMessage)")
    case .failure(let error):
      throw .unavailable("the GlobalShortcuts portal failed \(method) for \(accelerator.text): \(error.remoteMessage)")
    }
  }
}

extension Accelerator {
  /// The accelerator as the XDG shortcuts specification writes a trigger: `CTRL`, `ALT`,
  /// `SHIFT`, `LOGO`, then the key's XKB keysym name (`CTRL+ALT+k`, `LOGO+F12`).
  var portalTrigger: String {
    let names: [Modifier: String] = [.ctrl: "CTRL", .alt: "ALT", .shift: "SHIFT", .superKey: "LOGO"]
    return (modifiers.compactMap { names[$0] } + [keysym]).joined(separator: "+")
  }
}
