import CLibraryLoader
import Glibc
import Testing

/// `nb_library_open`, the one loader of the C modules that open their library on first use:
/// the first library of the list that exists, every symbol of the table, or one error naming
/// the library or the symbol that is missing (and no half-filled table).
@Suite struct LibraryLoaderTests {
  /// Opens `libraries` resolving `names`; the handle, the addresses and the error text.
  static func open(
    _ libraries: [String], _ names: [String]
  ) -> (handle: UnsafeMutableRawPointer?, addresses: [UnsafeMutableRawPointer?], error: String) {
    var addresses = [UnsafeMutableRawPointer?](repeating: UnsafeMutableRawPointer(bitPattern: 1), count: names.count)
    var error = [CChar](repeating: 0, count: 256)
    let cLibraries = libraries.map { strdup($0) }
    let cNames = names.map { strdup($0) }
    defer { for pointer in cLibraries + cNames { free(pointer) } }
    let handle = addresses.withUnsafeMutableBufferPointer { slots in
      let symbols = cNames.indices.map { NBLibrarySymbol(name: cNames[$0], address: slots.baseAddress! + $0) }
      let list = cLibraries.map { UnsafePointer($0) }
      return nb_library_open(list, list.count, symbols, symbols.count, &error, error.count)
    }
    return (handle, addresses, String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
  }

  @Test func opensTheFirstLibraryThatExistsAndResolvesEverySymbol() {
    let result = Self.open(["libnbridge-missing.so.0", "libm.so.6"], ["cos", "sqrt"])
    #expect(result.handle != nil)
    #expect(result.error == "")
    #expect(result.addresses.allSatisfy { $0 != nil })
    let cosine = unsafeBitCast(result.addresses[0], to: (@convention(c) (Double) -> Double).self)
    #expect(cosine(0) == 1)
  }

  @Test func aMissingLibraryIsNamedInTheError() {
    let result = Self.open(["libnbridge-missing.so.0"], ["cos"])
    #expect(result.handle == nil)
    #expect(result.error.contains("libnbridge-missing.so.0"))
    #expect(result.addresses == [nil])
  }

  @Test func aMissingSymbolIsNamedWithItsLibraryAndNoAddressIsLeft() {
    let result = Self.open(["libm.so.6"], ["cos", "nbridge_no_such_function", "sqrt"])
    #expect(result.handle == nil)
    #expect(result.error == "libm.so.6 lacks nbridge_no_such_function")
    #expect(result.addresses == [nil, nil, nil])
  }
}
