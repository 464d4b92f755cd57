import CGio

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
