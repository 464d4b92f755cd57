import CGio

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
  /// `h`: the index of a file descriptor passed with the call.
  case handle(Int32)

  /// A new floating `GVariant` (`g_variant_new_*`); the call that takes it consumes it.
  func make() -> OpaquePointer {
    switch self {
    case .string(let s): return g_variant_new_string(s)
    case .objectPath(let path): return g_variant_new_object_path(path)
    case .bool(let b): return g_variant_new_boolean(b ? 1 : 0)
    case .handle(let index): return g_variant_new_handle(index)
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
