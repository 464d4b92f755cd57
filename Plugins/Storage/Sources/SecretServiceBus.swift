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

/// A D-Bus value to send, built into a floating `GVariant` when the call is made.
indirect enum DBusArgument {
  /// `s`.
  case string(String)
  /// `o`.
  case objectPath(String)
  /// `b`.
  case bool(Bool)
  /// `ay`.
  case bytes([UInt8])
  /// `v`.
  case variant(DBusArgument)
  /// `a{ss}`.
  case stringMap([String: String])
  /// `a{sv}`.
  case properties([String: DBusArgument])
  /// A struct.
  case tuple([DBusArgument])

  /// A new floating `GVariant` (`g_variant_new_*`); the call that takes it consumes it.
  func make() -> OpaquePointer {
    switch self {
    case .string(let s): return g_variant_new_string(s)
    case .objectPath(let path): return g_variant_new_object_path(path)
    case .bool(let b): return g_variant_new_boolean(b ? 1 : 0)
    case .bytes(let bytes):
      return bytes.withUnsafeBytes {
        g_variant_new_fixed_array(g_variant_type_checked_("y"), $0.baseAddress, gsize(bytes.count), 1)
      }
    case .variant(let inner): return g_variant_new_variant(inner.make())
    case .stringMap(let map):
      let entries: [OpaquePointer?] = map.sorted { $0.key < $1.key }.map {
        g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_string($0.value))
      }
      return entries.withUnsafeBufferPointer {
        g_variant_new_array(g_variant_type_checked_("{ss}"), $0.baseAddress, gsize($0.count))
      }
    case .properties(let map):
      let entries: [OpaquePointer?] = map.sorted { $0.key < $1.key }.map {
        g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_variant($0.value.make()))
      }
      return entries.withUnsafeBufferPointer {
        g_variant_new_array(g_variant_type_checked_("{sv}"), $0.baseAddress, gsize($0.count))
      }
    case .tuple(let members):
      let children: [OpaquePointer?] = members.map { $0.make() }
      return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    }
  }
}

/// A received `GVariant`, owned (unreferenced when released), read by position.
final class GVariantReader {
  private let variant: OpaquePointer

  init(taking variant: OpaquePointer) { self.variant = variant }
  deinit { g_variant_unref(variant) }

  /// The type string (`(ao)`, `s`, ...).
  var type: String { String(cString: g_variant_get_type_string(variant)) }

  /// Member `index` of a tuple or array (nil past the end); a `v` is looked through.
  func child(_ index: Int) -> GVariantReader? {
    guard g_variant_is_container(variant) != 0, index < Int(g_variant_n_children(variant)) else { return nil }
    let child = GVariantReader(taking: g_variant_get_child_value(variant, gsize(index)))
    return child.type == "v" ? GVariantReader(taking: g_variant_get_variant(child.variant)) : child
  }

  /// The members of a container.
  var children: [GVariantReader] {
    guard g_variant_is_container(variant) != 0 else { return [] }
    return (0..<Int(g_variant_n_children(variant))).compactMap(child)
  }

  /// The text of an `s` or `o`.
  var string: String? {
    ["s", "o"].contains(type) ? String(cString: g_variant_get_string(variant, nil)) : nil
  }

  /// The `b`.
  var bool: Bool? { type == "b" ? g_variant_get_boolean(variant) != 0 : nil }

  /// The bytes of an `ay`.
  var bytes: [UInt8]? {
    guard type == "ay" else { return nil }
    var count: gsize = 0
    guard let data = g_variant_get_fixed_array(variant, &count, 1), count > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: Int(count)))
  }

  /// The paths of an `ao`.
  var objectPaths: [String]? { type == "ao" ? children.compactMap(\.string) : nil }
}
