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
      var name: String?
      if let error, let remote = g_dbus_error_get_remote_error(error) {
        name = String(cString: remote)
        g_free(remote)
      }
      throw SecretServiceCallError(name: name, message: Self.message(taking: error))
    }
    return GVariantReader(taking: reply)
  }

  /// How long one call waits for the Secret Service.
  static let timeoutMilliseconds: Int32 = 5000

  private static func message(taking error: UnsafeMutablePointer<GError>?) -> String {
    defer { if let error { g_error_free(error) } }
    return error.map { String(cString: $0.pointee.message) } ?? "unknown D-Bus error"
  }
}

/// A failed D-Bus call: the error name the peer answered with (if it did) and GLib's message.
struct SecretServiceCallError: Error {
  /// `org.freedesktop.DBus.Error.ServiceUnknown` and the like.
  var name: String?
  /// GLib's message.
  var message: String
}
