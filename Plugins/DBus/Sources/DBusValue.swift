import CGio

/// A D-Bus value in the types nbridge's D-Bus clients use (notifications, GeoClue, portals);
/// the only place that builds or reads a `GVariant`.
package indirect enum DBusValue: Equatable, Sendable {
  /// `s` (also read from `o` and `g`).
  case string(String)
  /// `o`, to send (an object path is read as a `.string`).
  case objectPath(String)
  /// `d`.
  case double(Double)
  /// `t`.
  case uint64(UInt64)
  /// `u`.
  case uint32(UInt32)
  /// `i`.
  case int32(Int32)
  /// `y`.
  case byte(UInt8)
  /// `b`.
  case bool(Bool)
  /// `as`.
  case strings([String])
  /// `ay`: raw bytes (an icon's pixels).
  case bytes([UInt8])
  /// An array of any other element type, given by its type string: `.array("i", ...)` is `ai`,
  /// `.array("(iiay)", ...)` an icon pixmap list; the elements must all have that type.
  case array(String, [DBusValue])
  /// `v`.
  case variant(DBusValue)
  /// `a{sv}`: hints and other string-keyed maps.
  case dictionary([String: DBusValue])
  /// A struct, such as a method's argument list: `(susssasa{sv}i)`.
  case tuple([DBusValue])
  /// Anything else that was read, by its type string.
  case other(String)

  /// A new floating `GVariant` (`g_variant_new_*`); a call that takes it consumes it.
  package func makeVariant() -> OpaquePointer {
    switch self {
    case .string(let s): return g_variant_new_string(s)
    case .objectPath(let path): return g_variant_new_object_path(path)
    case .double(let d): return g_variant_new_double(d)
    case .uint64(let t): return g_variant_new_uint64(guint64(t))
    case .uint32(let u): return g_variant_new_uint32(u)
    case .int32(let i): return g_variant_new_int32(i)
    case .byte(let b): return g_variant_new_byte(b)
    case .bool(let b): return g_variant_new_boolean(b ? 1 : 0)
    case .strings(let list): return Self.array(of: "s", list.map { g_variant_new_string($0) })
    case .bytes(let bytes):
      return bytes.withUnsafeBytes {
        g_variant_new_fixed_array(g_variant_type_checked_("y"), $0.baseAddress, gsize($0.count), 1)
      }
    case .array(let elementType, let elements): return Self.array(of: elementType, elements.map { $0.makeVariant() })
    case .variant(let inner): return g_variant_new_variant(inner.makeVariant())
    case .dictionary(let map):
      let entries = map.sorted { $0.key < $1.key }.map { key, value in
        g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value.makeVariant()))
      }
      return Self.array(of: "{sv}", entries)
    case .tuple(let members):
      let children: [OpaquePointer?] = members.map { $0.makeVariant() }
      return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
    case .other(let type): preconditionFailure("cannot build a D-Bus value of type \(type)")
    }
  }

  private static func array(of elementType: String, _ children: [OpaquePointer?]) -> OpaquePointer {
    children.withUnsafeBufferPointer { buffer in
      g_variant_new_array(g_variant_type_checked_(elementType), buffer.baseAddress, gsize(buffer.count))
    }
  }

  /// Reads `variant` (borrowed, not unreferenced here).
  package init(reading variant: OpaquePointer) {
    let type = String(cString: g_variant_get_type_string(variant))
    switch type {
    case "s", "o", "g": self = .string(String(cString: g_variant_get_string(variant, nil)))
    case "u": self = .uint32(g_variant_get_uint32(variant))
    case "d": self = .double(g_variant_get_double(variant))
    case "t": self = .uint64(UInt64(g_variant_get_uint64(variant)))
    case "i": self = .int32(g_variant_get_int32(variant))
    case "y": self = .byte(g_variant_get_byte(variant))
    case "b": self = .bool(g_variant_get_boolean(variant) != 0)
    case "v":
      let inner = g_variant_get_variant(variant)!
      defer { g_variant_unref(inner) }
      self = .variant(DBusValue(reading: inner))
    case "as":
      self = .strings(Self.children(of: variant).map { if case .string(let s) = $0 { s } else { "" } })
    case "ay":
      var count: gsize = 0
      let base = g_variant_get_fixed_array(variant, &count, 1)
      self = .bytes(base.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? [])
    case "a{sv}":
      var map: [String: DBusValue] = [:]
      for entry in Self.children(of: variant) {
        guard case .tuple(let pair) = entry, pair.count == 2, case .string(let key) = pair[0] else { continue }
        if case .variant(let value) = pair[1] { map[key] = value } else { map[key] = pair[1] }
      }
      self = .dictionary(map)
    default:
      if type.hasPrefix("(") || type.hasPrefix("{") {
        self = .tuple(Self.children(of: variant))
      } else if type.hasPrefix("a") {
        self = .array(String(type.dropFirst()), Self.children(of: variant))
      } else {
        self = .other(type)
      }
    }
  }

  private static func children(of container: OpaquePointer) -> [DBusValue] {
    (0..<g_variant_n_children(container)).map { index in
      let child = g_variant_get_child_value(container, index)!
      defer { g_variant_unref(child) }
      return DBusValue(reading: child)
    }
  }

  /// The members of a tuple (a method's reply or a signal's arguments); empty otherwise.
  package var members: [DBusValue] { if case .tuple(let m) = self { m } else { [] } }
  /// The string, when this is one.
  package var string: String? { if case .string(let s) = self { s } else { nil } }
  /// The `u`, when this is one.
  package var uint32: UInt32? { if case .uint32(let u) = self { u } else { nil } }
  /// The Boolean, when this is one.
  package var bool: Bool? { if case .bool(let b) = self { b } else { nil } }
  /// The strings, when this is an `as`.
  package var strings: [String]? { if case .strings(let s) = self { s } else { nil } }
  /// The `d`, when this is one.
  package var double: Double? { if case .double(let d) = self { d } else { nil } }
  /// The `t`, when this is one.
  package var uint64: UInt64? { if case .uint64(let t) = self { t } else { nil } }
  /// The `i`, when this is one.
  package var int32: Int32? { if case .int32(let i) = self { i } else { nil } }
  /// The elements, when this is an array read as `.array` (not `as`, `ay` or `a{sv}`).
  package var elements: [DBusValue]? { if case .array(_, let e) = self { e } else { nil } }
  /// The map, when this is an `a{sv}`.
  package var dictionary: [String: DBusValue]? { if case .dictionary(let map) = self { map } else { nil } }
}
