import CGio
import Glibc

/// The floor of `tray_click_ms`: a bare GDBus server, this executable run as
/// `nbridge-bench --dbus-floor-server ADDRESS`. It registers one object whose method is answered
/// from its own main loop (as nbridge's tray icon is, not on GDBus's worker thread as `Peer.Ping`
/// is) and, after each reply, writes `CALL <n>` on stdout, as the tray bench's click listener
/// writes `CLICK <n>`: the same client times both the same way.
enum DBusFloorServer {
  static let path = "/Floor"
  static let interface = "dev.nbridge.BenchFloor"
  static let xml = """
    <node><interface name="dev.nbridge.BenchFloor">
    <method name="Activate"><arg type="i" direction="in"/><arg type="i" direction="in"/></method>
    </interface></node>
    """

  /// Serves on the bus at `address` until killed; prints `READY <unique name>` once it answers.
  static func serve(address: String) -> Never {
    var error: UnsafeMutablePointer<GError>?
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error),
      let node = g_dbus_node_info_new_for_xml(xml, &error), let interface = node.pointee.interfaces?.pointee
    else {
      say("FAILED \(error.map { String(cString: $0.pointee.message) } ?? "no interface")")
      exit(1)
    }
    var vtable = GDBusInterfaceVTable()
    vtable.method_call = { _, _, _, _, _, _, invocation, counter in
      g_dbus_method_invocation_return_value(invocation, nil)
      let calls = counter!.assumingMemoryBound(to: Int.self)
      calls.pointee += 1
      DBusFloorServer.say("CALL \(calls.pointee)")
    }
    let counter = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    counter.initialize(to: 0)
    // Registered with the default main context as the thread's: calls are dispatched by the loop below.
    guard g_dbus_connection_register_object(connection, path, interface, &vtable, counter, nil, &error) != 0 else {
      say("FAILED \(error.map { String(cString: $0.pointee.message) } ?? "")")
      exit(1)
    }
    say("READY \(String(cString: g_dbus_connection_get_unique_name(connection)))")
    g_main_loop_run(g_main_loop_new(nil, 0))
    exit(0)
  }

  /// Writes `line` and a newline to stdout at once.
  static func say(_ line: String) {
    let text = line + "\n"
    _ = text.withCString { write(1, $0, strlen($0)) }
  }
}
