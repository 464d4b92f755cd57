import Glibc

/// IDNA (UTS #46, non-transitional) for URL hosts, through libidn2, opened with dlopen on the
/// first non-ASCII or `xn--` host so a run that parses none never maps it.
enum IDNA {
  private typealias Convert = @convention(c) (
    UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32
  ) -> Int32
  private typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

  /// libidn2's `idn2_lookup_u8`, `idn2_to_unicode_8z8z` and `idn2_free`, or nil without the library.
  private struct Library: @unchecked Sendable {
    let lookup: Convert
    let toUnicode: Convert
    let free: Free
  }

  private static let library: Library? = {
    guard let handle = dlopen("libidn2.so.0", RTLD_NOW | RTLD_LOCAL),
      let lookup = dlsym(handle, "idn2_lookup_u8"), let toUnicode = dlsym(handle, "idn2_to_unicode_8z8z"),
      let free = dlsym(handle, "idn2_free")
    else { return nil }
    return Library(
      lookup: unsafeBitCast(lookup, to: Convert.self), toUnicode: unsafeBitCast(toUnicode, to: Convert.self),
      free: unsafeBitCast(free, to: Free.self))
  }()

  /// IDN2_NONTRANSITIONAL: the URL standard's UTS #46 processing (no STD3 rules).
  private static let nonTransitional: Int32 = 8

  /// The ASCII form of one label (`bücher` → `xn--bcher-kva`), or nil when it is invalid.
  static func toASCII(_ label: String) -> String? {
    convert(label) { library, input, output in library.lookup(input, output, nonTransitional) }
  }

  /// The Unicode form of one label (`xn--bcher-kva` → `bücher`), or nil when it is invalid.
  static func toUnicode(_ label: String) -> String? {
    convert(label) { library, input, output in library.toUnicode(input, output, 0) }
  }

  private static func convert(
    _ text: String, _ call: (Library, UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
  ) -> String? {
    guard let library else { return nil }
    var output: UnsafeMutablePointer<CChar>?
    let status = text.withCString { call(library, $0, &output) }
    defer { library.free(output) }
    guard status == 0, let output else { return nil }
    return String(cString: output)
  }
}
