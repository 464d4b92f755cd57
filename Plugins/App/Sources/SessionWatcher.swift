import CGio
import NBridgePlugin

/// Follows the logind session the process belongs to (`org.freedesktop.login1` on the system
/// bus, or the bus at `NBRIDGE_LOGIND_BUS`): locked (`LockedHint`) or not in front
/// (`Active=false`) → background, idle (`IdleHint`) → inactive, else active. It moves the
/// lifecycle only when the session's verdict changes, so the window and signals still move it
/// in between. Everything is asynchronous on the loop's GLib context: no polling, and nothing
/// until the loop first waits (`startWhenTheLoopWaits`): a run that ends in its first turn never
/// connects (the connect starts GLib's worker and pool threads, about 0.9 MiB of a hello's
/// peak). Without a bus or a session it quietly does nothing.
@BridgeActor
final class SessionWatcher {
  private let lifecycle: Lifecycle
  private let mainContext: OpaquePointer?
  private var connection: OpaquePointer?
  private var sessionPath: String?
  private var subscription: guint = 0
  private var verdict: AppState?
  /// The idle source that will call `start`, until it has.
  private var pendingStart: UnsafeMutablePointer<GSource>?

  init(lifecycle: Lifecycle, mainContext: OpaquePointer?) {
    self.lifecycle = lifecycle
    self.mainContext = mainContext
  }

  /// Calls `start(address:)` from the loop's GLib context once the loop first waits for
  /// something (an idle source: the loop only polls when the run has more to do).
  func startWhenTheLoopWaits(address: String?) {
    guard let source = g_idle_source_new() else { return start(address: address) }
    let box = Unmanaged.passRetained(StartBox(watcher: self, address: address)).toOpaque()
    g_source_set_callback(
      source,
      { data in
        let box = Unmanaged<StartBox>.fromOpaque(data!).takeUnretainedValue()
        BridgeActor.assumeIsolated {
          box.watcher.dropPendingStart()
          box.watcher.start(address: box.address)
        }
        return 0  // G_SOURCE_REMOVE
      }, box, { data in Unmanaged<StartBox>.fromOpaque(data!).release() })
    g_source_attach(source, mainContext)
    pendingStart = source
  }

  /// Forgets the idle source (it has fired, or the run ends first and it never will).
  private func dropPendingStart() {
    guard let source = pendingStart else { return }
    pendingStart = nil
    g_source_destroy(source)
    g_source_unref(source)
  }

  /// Connects to `address` (nil: the system bus) and starts following the session.
  func start(address: String?) {
    var resolved = address
    if resolved == nil {
      guard let system = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SYSTEM, nil, nil) else { return }
      resolved = String(cString: system)
      g_free(system)
    }
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    let me = Unmanaged.passRetained(self).toOpaque()
    withThreadDefault {
      g_dbus_connection_new_for_address(
        resolved, flags, nil, nil,
        { _, result, data in
          let watcher = Unmanaged<SessionWatcher>.fromOpaque(data!).takeRetainedValue()
          let connection = g_dbus_connection_new_for_address_finish(result, nil)
          let handle = Pointer(connection)
          BridgeActor.assumeIsolated { watcher.connected(handle.pointer) }
        }, me)
    }
  }

  private func connected(_ connection: OpaquePointer?) {
    guard let connection else { return }
    self.connection = connection
    g_dbus_connection_set_exit_on_close(connection, 0)
    call(
      path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager", method: "GetSessionByPID",
      arguments: g_variant_new_tuple([g_variant_new_uint32(guint32(getpid()))], 1)
    ) { watcher, reply in
      guard let reply else { return }
      let child = g_variant_get_child_value(reply, 0)
      defer { g_variant_unref(child) }
      watcher.follow(String(cString: g_variant_get_string(child, nil)))
    }
  }

  private func follow(_ path: String) {
    guard let connection else { return }
    sessionPath = path
    let me = Unmanaged.passUnretained(self).toOpaque()
    subscription = withThreadDefault {
      g_dbus_connection_signal_subscribe(
        connection, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged", path, nil,
        G_DBUS_SIGNAL_FLAGS_NONE,
        { _, _, _, _, _, _, data in
          let handle = Pointer(OpaquePointer(data))
          BridgeActor.assumeIsolated {
            Unmanaged<SessionWatcher>.fromOpaque(UnsafeRawPointer(handle.pointer!)).takeUnretainedValue().refresh()
          }
        }, me, nil)
    }
    refresh()
  }

  /// Reads the session's hints and moves the lifecycle if their verdict changed.
  private func refresh() {
    guard let sessionPath else { return }
    call(
      path: sessionPath, interface: "org.freedesktop.DBus.Properties", method: "GetAll",
      arguments: g_variant_new_tuple([g_variant_new_string("org.freedesktop.login1.Session")], 1)
    ) { watcher, reply in
      guard let reply else { return }
      let properties = g_variant_get_child_value(reply, 0)
      defer { g_variant_unref(properties) }
      func flag(_ name: String) -> Bool? {
        guard let value = g_variant_lookup_value(properties, name, nil) else { return nil }
        defer { g_variant_unref(value) }
        guard String(cString: g_variant_get_type_string(value)) == "b" else { return nil }
        return g_variant_get_boolean(value) != 0
      }
      let state: AppState =
        flag("LockedHint") == true || flag("Active") == false
        ? .background : flag("IdleHint") == true ? .inactive : .active
      watcher.judged(state)
    }
  }

  private func judged(_ state: AppState) {
    guard state != verdict else { return }
    let first = verdict == nil
    verdict = state
    // An unlocked, active session at start says nothing new: the app starts as it starts.
    if first && state == .active { return }
    lifecycle.move(to: state)
  }

  /// Calls `method` on login1; `done` gets the reply (nil on an error), on the loop.
  private func call(
    path: String, interface: String, method: String, arguments: OpaquePointer?,
    _ done: @escaping @BridgeActor (SessionWatcher, OpaquePointer?) -> Void
  ) {
    guard let connection else { return }
    let box = Unmanaged.passRetained(CallBox(watcher: self, done: done)).toOpaque()
    withThreadDefault {
      g_dbus_connection_call(
        connection, "org.freedesktop.login1", path, interface, method, arguments, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
        5000, nil,
        { source, result, data in
          let box = Unmanaged<CallBox>.fromOpaque(data!).takeRetainedValue()
          let reply = Pointer(g_dbus_connection_call_finish(OpaquePointer(source), result, nil))
          BridgeActor.assumeIsolated {
            box.done(box.watcher, reply.pointer)
            if let reply = reply.pointer { g_variant_unref(reply) }
          }
        }, box)
    }
  }

  /// Stops following (at the end of the run).
  func stop() {
    dropPendingStart()
    guard let connection else { return }
    if subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
    subscription = 0
    sessionPath = nil
  }

  private func withThreadDefault<T>(_ body: () -> T) -> T {
    guard let mainContext else { return body() }
    g_main_context_push_thread_default(mainContext)
    defer { g_main_context_pop_thread_default(mainContext) }
    return body()
  }

  isolated deinit {
    stop()
    if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
  }
}

/// What the idle source of `startWhenTheLoopWaits` starts.
private final class StartBox {
  let watcher: SessionWatcher
  let address: String?
  init(watcher: SessionWatcher, address: String?) {
    self.watcher = watcher
    self.address = address
  }
}

/// A pending login1 call: who asked and what to do with the reply.
private final class CallBox {
  let watcher: SessionWatcher
  let done: @BridgeActor (SessionWatcher, OpaquePointer?) -> Void
  init(watcher: SessionWatcher, done: @escaping @BridgeActor (SessionWatcher, OpaquePointer?) -> Void) {
    self.watcher = watcher
    self.done = done
  }
}

/// A GLib pointer carried from a C callback into the loop's isolation (the same thread).
private struct Pointer: @unchecked Sendable {
  let pointer: OpaquePointer?
  init(_ pointer: OpaquePointer?) { self.pointer = pointer }
}
