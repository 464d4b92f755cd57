import Glibc

/// UTS #46 ToASCII for URL hosts, as WebKit's own URL parser does it: through ICU's `uidna_*`,
/// which JavaScriptCore already maps into every run (libicuuc), found on the first host that is
/// not plain ASCII. Options are the URL standard's: non-transitional, CheckBidi, CheckJoiners, no
/// STD3 rules; the DNS length and hyphen errors are ignored (VerifyDnsLength and CheckHyphens off).
enum IDNA {
  private typealias Open = @convention(c) (UInt32, UnsafeMutablePointer<Int32>?) -> OpaquePointer?
  private typealias ToASCII = @convention(c) (
    OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<CChar>?, Int32, UnsafeMutableRawPointer?,
    UnsafeMutablePointer<Int32>?
  ) -> Int32

  /// ICU's UTS #46 processor and its ToASCII, or nil when ICU is not mapped.
  private struct Processor: @unchecked Sendable {
    let idna: OpaquePointer
    let toASCII: ToASCII
  }

  /// UIDNA_CHECK_BIDI | UIDNA_CHECK_CONTEXTJ | UIDNA_NONTRANSITIONAL_TO_ASCII | ..._TO_UNICODE.
  private static let options: UInt32 = 0x04 | 0x08 | 0x10 | 0x20
  /// UIDNA_ERROR_EMPTY_LABEL, LABEL_TOO_LONG, DOMAIN_NAME_TOO_LONG, LEADING_HYPHEN,
  /// TRAILING_HYPHEN, HYPHEN_3_4: checks the URL standard turns off.
  private static let ignoredErrors: UInt32 = 0x3F

  private static let processor: Processor? = {
    // ICU suffixes its symbols with its major version (uidna_openUTS46_72).
    let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
    for version in (50...120).reversed() {
      guard let open = dlsym(everywhere, "uidna_openUTS46_\(version)"),
        let toASCII = dlsym(everywhere, "uidna_nameToASCII_UTF8_\(version)")
      else { continue }
      var status: Int32 = 0
      guard let idna = unsafeBitCast(open, to: Open.self)(options, &status), status <= 0 else { return nil }
      return Processor(idna: idna, toASCII: unsafeBitCast(toASCII, to: ToASCII.self))
    }
    return nil
  }()

  /// The ASCII form of a domain (`bücher.de` → `xn--bcher-kva.de`), or nil when it is not valid.
  static func toASCII(_ domain: String) -> String? {
    guard let processor else { return nil }
    var capacity = max(64, domain.utf8.count * 4 + 16)
    while true {
      var output = [CChar](repeating: 0, count: capacity)
      // UIDNAInfo: int16 size, two UBools, uint32 errors, two reserved int32s.
      var info = (Int16(16), UInt8(0), UInt8(0), UInt32(0), Int32(0), Int32(0))
      var status: Int32 = 0
      let length = domain.withCString { input in
        withUnsafeMutablePointer(to: &info) { infoPointer in
          processor.toASCII(processor.idna, input, -1, &output, Int32(capacity), infoPointer, &status)
        }
      }
      if status == 15 {  // U_BUFFER_OVERFLOW_ERROR
        capacity = Int(length) + 1
        continue
      }
      guard status <= 0, info.3 & ~ignoredErrors == 0, length >= 0 else { return nil }
      return String(decoding: output[0..<Int(length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
  }
}
