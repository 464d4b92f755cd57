import CGio
import NBridgePlugin

/// Why a D-Bus operation failed: GLib's message for it.
package struct DBusError: Error, Sendable, CustomStringConvertible {
  /// What GLib said (or why we gave up).
  package var message: String
  /// The D-Bus error name the peer answered with (`org.freedesktop.DBus.Error.AccessDenied`), if it did.
  package var name: String?
  /// Whether no reply came within the call's timeout (`G_IO_ERROR_TIMED_OUT`).
  package var timedOut = false
  /// The message.
  package var description: String { message }

  /// An error of ours, with no D-Bus name.
  package init(_ message: String) { self.message = message }

  /// Takes GLib's error and frees it.
  init(taking error: UnsafeMutablePointer<GError>?) {
    message = error.map { String(cString: $0.pointee.message) } ?? "unknown D-Bus error"
    guard let error else { return }
    if let remote = g_dbus_error_get_remote_error(error) {
      name = String(cString: remote)
      g_free(remote)
    }
    timedOut = g_error_matches(error, g_io_error_quark(), Int32(G_IO_ERROR_TIMED_OUT.rawValue)) != 0
    g_error_free(error)
  }

  /// The peer's own words: `message` without GLib's `GDBus.Error:<name>: ` prefix.
  package var remoteMessage: String {
    guard let name else { return message }
    let prefix = "GDBus.Error:\(name): "
    return message.hasPrefix(prefix) ? String(message.dropFirst(prefix.count)) : message
  }
}

/// A connection to a message bus through GDBus, used on the loop thread.
///
/// Every asynchronous operation starts with the loop's GLib main context as the
/// thread-default one, so replies and signals are dispatched by the loop itself: no
/// thread of ours, and callbacks run where `@BridgeActor` code may run.
@BridgeActor
package final class DBusConnection {
  let connection: OpaquePointer
  let mainContext: OpaquePointer?
  private var subscriptions: Set<UInt32> = []
  /// The objects `export` registered, unregistered by `close()`.
  var exports: Set<UInt32> = []

  private init(connection: OpaquePointer, mainContext: OpaquePointer?) {
    self.connection = connection
    self.mainContext = mainContext
    g_dbus_connection_set_exit_on_close(connection, 0)
  }

  /// Connects to the bus at `address` (`g_dbus_connection_new_for_address`), giving up after `timeout` milliseconds.
  package static func connect(address: String, mainContext: OpaquePointer?, timeout: UInt32) async throws(DBusError)
    -> DBusConnection
  {
    let cancellable = g_cancellable_new()!
    defer { g_object_unref(cancellable) }
    let timer = g_timeout_source_new(timeout)!
    defer {
      g_source_destroy(timer)
      g_source_unref(timer)
    }
    g_object_ref(cancellable)
    g_source_set_callback(
      timer,
      { data in
        g_cancellable_cancel(data?.assumingMemoryBound(to: GCancellable.self))
        return 0
      },
      UnsafeMutableRawPointer(cancellable), { g_object_unref($0) })
    g_source_attach(timer, mainContext)

    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<ReplyBox.Outcome, Never>) in
      let box = Unmanaged.passRetained(ReplyBox(continuation)).toOpaque()
      withThreadDefault(mainContext) {
        g_dbus_connection_new_for_address(
          address, flags, nil, cancellable,
          { _, result, data in
            var error: UnsafeMutablePointer<GError>?
            let connection = g_dbus_connection_new_for_address_finish(result, &error)
            ReplyBox.finish(data, connection.map { .success(OwnedPointer($0)) } ?? .failure(DBusError(taking: error)))
          }, box)
      }
    }
    if case .failure = result, g_cancellable_is_cancelled(cancellable) != 0 {
      throw DBusError("no answer from \(address) within \(timeout) ms")
    }
    return DBusConnection(connection: try result.get().pointer, mainContext: mainContext)
  }

  /// The name the bus gave this connection (`:1.42`).
  package var uniqueName: String { g_dbus_connection_get_unique_name(connection).map { String(cString: $0) } ?? "" }

  /// Calls `interface.method` on `destination` (`g_dbus_connection_call`), activating a service
  /// that is not running only when `autoStart`; fails after `timeout` milliseconds without a reply.
  package func call(
    _ destination: String, path: String, interface: String, method: String, arguments: DBusValue? = nil,
    timeout: Int32, autoStart: Bool = false
  ) async throws(DBusError) -> DBusValue {
    let flags = autoStart ? G_DBUS_CALL_FLAGS_NONE : G_DBUS_CALL_FLAGS_NO_AUTO_START
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<ReplyBox.Outcome, Never>) in
      let box = Unmanaged.passRetained(ReplyBox(continuation)).toOpaque()
      withThreadDefault(mainContext) {
        g_dbus_connection_call(
          connection, destination, path, interface, method, arguments?.makeVariant(), nil,
          flags, timeout, nil,
          { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
            ReplyBox.finish(data, reply.map { .success(OwnedPointer($0)) } ?? .failure(DBusError(taking: error)))
          }, box)
      }
    }
    let reply = try result.get().pointer
    defer { g_variant_unref(reply) }
    return DBusValue(reading: reply)
  }

  /// Calls `handler(signalName, arguments)` for each signal of `interface` at `path` (whose first
  /// argument is `arg0`, when given) sent to this connection (`g_dbus_connection_signal_subscribe`);
  /// ends with `unsubscribe(_:)` or `close()`.
  @discardableResult
  package func subscribe(
    interface: String, path: String, arg0: String? = nil, _ handler: @escaping @BridgeActor (String, DBusValue) -> Void
  ) -> UInt32 {
    let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
    let id = withThreadDefault(mainContext) {
      g_dbus_connection_signal_subscribe(
        connection, nil, interface, nil, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE,
        { _, _, _, _, member, arguments, data in
          guard let data, let member, let arguments else { return }
          let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
          let value = DBusValue(reading: arguments)
          let name = String(cString: member)
          BridgeActor.assumeIsolated { box.handler(name, value) }
        }, box, { Unmanaged<SignalBox>.fromOpaque($0!).release() })
    }
    subscriptions.insert(id)
    return id
  }

  /// Ends one subscription `subscribe` made (again is harmless).
  package func unsubscribe(_ id: UInt32) {
    guard subscriptions.remove(id) != nil else { return }
    g_dbus_connection_signal_unsubscribe(connection, id)
  }

  /// Unsubscribes every signal handler and drops the connection.
  package func close() {
    for id in subscriptions { g_dbus_connection_signal_unsubscribe(connection, id) }
    subscriptions = []
    for id in exports { g_dbus_connection_unregister_object(connection, id) }
    exports = []
  }

  /// Closes the connection (`g_dbus_connection_close`) after `close()`: the bus drops the names
  /// it owned and its peers see them go. Replies already queued are written out first
  /// (`g_dbus_connection_flush_sync`), so an answer sent just before is not lost if the process ends.
  package func disconnect() {
    close()
    g_dbus_connection_flush_sync(connection, nil, nil)
    g_dbus_connection_close(connection, nil, nil, nil)
  }

  isolated deinit {
    close()
    g_object_unref(UnsafeMutableRawPointer(connection))
  }
}

/// Runs `body` with `context` as the thread-default GLib main context, so the
/// asynchronous operations it starts report back through that context.
func withThreadDefault<T>(_ context: OpaquePointer?, _ body: () -> T) -> T {
  guard let context else { return body() }
  g_main_context_push_thread_default(context)
  defer { g_main_context_pop_thread_default(context) }
  return body()
}

/// What a C callback needs to resume the Swift task waiting for a GLib operation.
private final class ReplyBox: @unchecked Sendable {
  typealias Outcome = Result<OwnedPointer, DBusError>
  let continuation: CheckedContinuation<Outcome, Never>
  init(_ continuation: CheckedContinuation<Outcome, Never>) { self.continuation = continuation }

  /// Resumes the waiting task and releases the box retained for the callback.
  static func finish(_ data: UnsafeMutableRawPointer?, _ outcome: Outcome) {
    Unmanaged<ReplyBox>.fromOpaque(data!).takeRetainedValue().continuation.resume(returning: outcome)
  }
}

/// A signal handler held by GDBus while subscribed.
private final class SignalBox {
  let handler: @BridgeActor (String, DBusValue) -> Void
  init(_ handler: @escaping @BridgeActor (String, DBusValue) -> Void) { self.handler = handler }
}

/// A GLib object or variant handed from a callback to the task that owns it from then on.
private struct OwnedPointer: @unchecked Sendable {
  let pointer: OpaquePointer
  init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
