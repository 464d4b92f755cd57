import CGio
import NBridgePlugin

/// A D-Bus error a served method answers with: `org.freedesktop.DBus.Error.InvalidArgs` and why.
package struct DBusMethodError: Error, Sendable {
  /// The D-Bus error name.
  package var name: String
  /// What the caller is told.
  package var message: String

  /// An error named `name` saying `message`.
  package init(_ message: String, name: String = "org.freedesktop.DBus.Error.InvalidArgs") {
    self.name = name
    self.message = message
  }
}

/// Answers a method call on a served object: its name and arguments in, the reply's members out.
package typealias DBusMethodHandler =
  @BridgeActor (_ method: String, _ arguments: [DBusValue]) throws(DBusMethodError)
  -> [DBusValue]
/// Reads a served object's property by name; nil for a property it does not have.
package typealias DBusPropertyReader = @BridgeActor (_ property: String) -> DBusValue?

extension DBusConnection {
  /// Serves the one interface `interfaceXML` declares (`<node><interface name=...>...`) at `path`
  /// (`g_dbus_connection_register_object`): `methods` answers its calls, `properties` its
  /// properties (GDBus answers `org.freedesktop.DBus.Properties` and `Introspectable` from them).
  /// Both run on the loop thread. Returns the registration for `unexport(_:)`.
  package func export(
    path: String, interfaceXML: String, methods: @escaping DBusMethodHandler,
    properties: @escaping DBusPropertyReader
  ) throws(DBusError) -> UInt32 {
    var error: UnsafeMutablePointer<GError>?
    guard let node = g_dbus_node_info_new_for_xml(interfaceXML, &error) else { throw DBusError(taking: error) }
    defer { g_dbus_node_info_unref(node) }
    guard let interface = node.pointee.interfaces?.pointee else { throw DBusError("no interface in \(interfaceXML)") }
    var vtable = GDBusInterfaceVTable()
    vtable.method_call = { _, _, _, _, method, parameters, invocation, data in
      guard let data, let method, let parameters else { return }
      let box = Unmanaged<ExportBox>.fromOpaque(data).takeUnretainedValue()
      let name = String(cString: method)
      let arguments = DBusValue(reading: parameters).members
      BridgeActor.assumeIsolated {
        do throws(DBusMethodError) {
          let reply = try box.methods(name, arguments)
          g_dbus_method_invocation_return_value(invocation, DBusValue.tuple(reply).makeVariant())
        } catch {
          g_dbus_method_invocation_return_dbus_error(invocation, error.name, error.message)
        }
      }
    }
    vtable.get_property = { _, _, _, _, property, error, data in
      guard let data, let property else { return nil }
      let box = Unmanaged<ExportBox>.fromOpaque(data).takeUnretainedValue()
      let name = String(cString: property)
      let value = BridgeActor.assumeIsolated { box.properties(name) }
      guard let value else {
        g_set_error_literal(
          error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no property \(name)")
        return nil
      }
      return value.makeVariant()
    }
    let box = Unmanaged.passRetained(ExportBox(methods: methods, properties: properties)).toOpaque()
    let id = withThreadDefault(mainContext) {
      g_dbus_connection_register_object(
        connection, path, interface, &vtable, box, { Unmanaged<ExportBox>.fromOpaque($0!).release() }, &error)
    }
    guard id != 0 else { throw DBusError(taking: error) }
    exports.insert(id)
    return id
  }

  /// Stops serving one object `export` registered (again is harmless).
  package func unexport(_ id: UInt32) {
    guard exports.remove(id) != nil else { return }
    g_dbus_connection_unregister_object(connection, id)
  }

  /// Broadcasts the signal `interface.name` from `path` (`g_dbus_connection_emit_signal`).
  package func emitSignal(path: String, interface: String, name: String, arguments: [DBusValue]) throws(DBusError) {
    var error: UnsafeMutablePointer<GError>?
    let sent = g_dbus_connection_emit_signal(
      connection, nil, path, interface, name, DBusValue.tuple(arguments).makeVariant(), &error)
    if sent == 0 { throw DBusError(taking: error) }
  }
}

/// A served object's handlers, held by GDBus while registered.
private final class ExportBox {
  let methods: DBusMethodHandler
  let properties: DBusPropertyReader
  init(methods: @escaping DBusMethodHandler, properties: @escaping DBusPropertyReader) {
    self.methods = methods
    self.properties = properties
  }
}
