import CGio
import NBridgePlugin

/// A blocking GDBus connection for the Secret Service client: its calls wait for the reply,
/// so it is used only off the loop (the key is fetched on a thread of its own).
final class SecretServiceBus {
  private let connection: OpaquePointer

  /// Connects to the bus at `address` (`g_dbus_connection_new_for_address_sync`).
  init(address: String) throws {
    var error: UnsafeMutablePointer<GError>?
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
      throw BridgeError.unavailable(
        "secure storage needs the Secret Service, but the session bus at \(address) cannot be reached: "
          + Self.message(taking: error))
    }
    g_dbus_connection_set_exit_on_close(connection, 0)
    self.connection = connection
  }

  deinit {
    g_dbus_connection_close_sync(connection, nil, nil)
    g_object_unref(UnsafeMutableRawPointer(connection))
  }

  /// Calls `interface.method` (`g_dbus_connection_call_sync`), never starting a service that is
  /// not running (D-Bus activation would start a keyring daemon whose keyring nobody unlocked).
  func call(
    _ destination: String, path: String, interface: String, method: String, _ arguments: [DBusArgument]
  ) throws(SecretServiceCallError) -> GVariantReader {
    let children: [OpaquePointer?] = arguments.map { $0.make() }
    let tuple = children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    var error: UnsafeMutablePointer<GError>?
    guard
      let reply = g_dbus_connection_call_sync(
        connection, destination, path, interface, method, tuple, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
        Self.timeoutMilliseconds, nil, &error)
    else {
      throw Self.callError(taking: error)
    }
    return GVariantReader(taking: reply)
  }

  /// Calls `interface.method` with the file descriptor `fd` passed along as handle 0
  /// (`g_dbus_connection_call_with_unix_fd_list_sync`); the caller keeps its own `fd`.
  func call(
    _ destination: String, path: String, interface: String, method: String, _ arguments: [DBusArgument],
    passing fd: Int32
  ) throws(SecretServiceCallError) -> GVariantReader {
    let children: [OpaquePointer?] = arguments.map { $0.make() }
    let tuple = children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    var error: UnsafeMutablePointer<GError>?
    let list = g_unix_fd_list_new()
    defer { g_object_unref(UnsafeMutableRawPointer(list)) }
    guard g_unix_fd_list_append(list, fd, &error) >= 0 else {
      throw SecretServiceCallError(name: nil, message: Self.message(taking: error))
    }
    guard
      let reply = g_dbus_connection_call_with_unix_fd_list_sync(
        connection, destination, path, interface, method, tuple, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START,
        Self.timeoutMilliseconds, list, nil, nil, &error)
    else {
      throw Self.callError(taking: error)
    }
    return GVariantReader(taking: reply)
  }

  /// Makes a portal request: calls `interface.method` (passing `fd` as handle 0), whose reply
  /// names a request object at `requestPath`, and waits up to `timeout` milliseconds for that
  /// request's `org.freedesktop.portal.Request.Response` signal. Returns the response code
  /// (0 done, 1 cancelled by the user, 2 failed), nil when none came in time. The signal is
  /// subscribed before the call (on a main context of this thread's own), so it cannot be missed.
  func request(
    _ destination: String, path: String, interface: String, method: String, _ arguments: [DBusArgument],
    passing fd: Int32, requestPath: String, timeout: Int32
  ) throws(SecretServiceCallError) -> UInt32? {
    let context = g_main_context_new()
    g_main_context_push_thread_default(context)
    defer {
      g_main_context_pop_thread_default(context)
      g_main_context_unref(context)
    }
    let response = ResponseBox()
    let box = Unmanaged.passRetained(response).toOpaque()
    let id = g_dbus_connection_signal_subscribe(
      connection, nil, "org.freedesktop.portal.Request", "Response", requestPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
      { _, _, _, _, _, parameters, data in
        guard let parameters, let data, let first = g_variant_get_child_value(parameters, 0) else { return }
        defer { g_variant_unref(first) }
        if g_variant_is_of_type(first, g_variant_type_checked_("u")) != 0 {
          Unmanaged<ResponseBox>.fromOpaque(data).takeUnretainedValue().code = g_variant_get_uint32(first)
        }
      }, box, { Unmanaged<ResponseBox>.fromOpaque($0!).release() })
    defer { g_dbus_connection_signal_unsubscribe(connection, id) }
    _ = try call(destination, path: path, interface: interface, method: method, arguments, passing: fd)
    let timer = g_timeout_source_new(guint(timeout))
    g_source_set_callback(timer, { _ in 0 }, nil, nil)
    g_source_attach(timer, context)
    defer {
      g_source_destroy(timer)
      g_source_unref(timer)
    }
    while response.code == nil && g_source_is_destroyed(timer) == 0 {
      g_main_context_iteration(context, 1)
    }
    return response.code
  }

  /// The connection's unique name (`:1.42`), which a portal puts in its request paths.
  var uniqueName: String { g_dbus_connection_get_unique_name(connection).map { String(cString: $0) } ?? "" }

  /// How long one call waits for the Secret Service.
  static let timeoutMilliseconds: Int32 = 5000

  /// The error of a failed call: the peer's D-Bus error name (if it answered with one) and GLib's
  /// message; frees `error`.
  private static func callError(taking error: UnsafeMutablePointer<GError>?) -> SecretServiceCallError {
    var name: String?
    if let error, let remote = g_dbus_error_get_remote_error(error) {
      name = String(cString: remote)
      g_free(remote)
    }
    return SecretServiceCallError(name: name, message: message(taking: error))
  }

  private static func message(taking error: UnsafeMutablePointer<GError>?) -> String {
    defer { if let error { g_error_free(error) } }
    return error.map { String(cString: $0.pointee.message) } ?? "unknown D-Bus error"
  }
}

/// Where a portal request's `Response` code lands (written on the thread that waits for it).
private final class ResponseBox {
  var code: UInt32?
}

/// A failed D-Bus call: the error name the peer answered with (if it did) and GLib's message.
struct SecretServiceCallError: Error {
  /// `org.freedesktop.DBus.Error.ServiceUnknown` and the like.
  var name: String?
  /// GLib's message.
  var message: String
}
