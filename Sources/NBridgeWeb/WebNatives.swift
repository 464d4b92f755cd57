import Glibc
import NBridgePlugin
import NBridgeRuntime

/// The native floor of the web APIs in `JS/`: what the files cannot do in JavaScript (random
/// bytes, digests, IDNA, legacy decoders, the clock of `performance.now()` and event time stamps). Each function takes and returns plain values or
/// bytes; the semantics (argument checks, Promises, errors) stay in the JS files.
enum WebNatives {
  /// The functions added to the prelude's `internal.native`.
  static let functions: [RuntimeExtension.Function<WebState>] = [
    .init("randomFill", result: randomFill), .init("digest", result: digest),
    .init("domainToASCII", result: domainToASCII), .init("systemInfo", result: systemInfo),
    .init("legacyDecode", result: legacyDecode), .init("now") { _, host, _ in .number(host.sinceTimeOrigin) },
  ]

  /// `randomFill(view)`: fills a typed array with random bytes.
  @BridgeActor static func randomFill(_: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    _ = args.withBytes(0) { bytes in if bytes.count > 0 { RandomBytes.fill(bytes) } }
    return nil
  }

  /// `digest(kind, input, output)`: writes the SHA digest of `input` into `output`; returns whether it did.
  @BridgeActor static func digest(_: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    let kind = args.number(0)
    let done = args.withBytes(1) { input in
      args.withBytes(2) { output in
        Digest.compute(kind: Int(exactly: kind) ?? -1, input: UnsafeRawBufferPointer(input), output: output)
      }
    }
    return .json(.bool(done == true))
  }

  /// `domainToASCII(domain)`: the UTS #46 ToASCII of a host (ICU), or null when it is not a valid domain.
  @BridgeActor static func domainToASCII(_: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    guard let domain = args.string(0), let ascii = IDNA.toASCII(domain) else { return .json(.null) }
    return .json(.string(ascii))
  }

  /// `systemInfo()`: what `navigator` reports: the locale's language tag and the online CPU count.
  @BridgeActor static func systemInfo(_: WebState, _ host: ExtensionHost, _: ExtensionArguments) -> ExtensionResult? {
    let env = host.configuration.environment
    let locale = [env["LC_ALL"], env["LC_MESSAGES"], env["LANG"]].compactMap { $0 }.first { !$0.isEmpty }
    return .json(["locale": .string(locale ?? ""), "cpus": .number(Double(max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))])
  }

  /// `legacyDecode(charset, bytes, flush, fatal, kind)`: `[text, bytesUsed]` decoded by
  /// `LegacyDecoder` (kind 0: multi-byte, 1: single-byte, 2: a windows single-byte code page), or
  /// null when `fatal` and the bytes are not valid (or no converter exists).
  @BridgeActor static func legacyDecode(_: WebState, _: ExtensionHost, _ args: ExtensionArguments) -> ExtensionResult? {
    let charset = args.string(0) ?? ""
    let flush = args.bool(2)
    let fatal = args.bool(3)
    let kind = args.number(4)
    let decode = { (bytes: UnsafeRawBufferPointer) -> (units: [UInt16], used: Int)? in
      if kind == 0 { return LegacyDecoder.decode(charset: charset, bytes: bytes, flush: flush, fatal: fatal) }
      return LegacyDecoder.decodeSingleByte(charset: charset, bytes: bytes, fatal: fatal, windowsC1: kind == 2)
        .map { ($0, bytes.count) }
    }
    let decoded = args.withBytes(1) { decode(UnsafeRawBufferPointer($0)) } ?? decode(UnsafeRawBufferPointer(start: nil, count: 0))
    guard let decoded else { return .json(.null) }
    return .array([.utf16(decoded.units), .json(.number(Double(decoded.used)))])
  }
}
