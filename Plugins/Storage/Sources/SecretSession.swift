import CCrypto
import NBridgePlugin

/// A session with the Secret Service: how secrets travel between it and nbridge.
///
/// `dh-ietf1024-sha256-aes128-cbc-pkcs7` when the service offers it (every secret crosses the
/// bus encrypted under a key agreed by Diffie-Hellman), else `plain`.
struct SecretSession {
  /// The algorithm nbridge asks for first.
  static let dhAlgorithm = "dh-ietf1024-sha256-aes128-cbc-pkcs7"

  /// The session's object path.
  let path: String
  /// The AES-128 key of a DH session; nil for `plain`.
  let key: [UInt8]?

  /// Opens a DH session, retrying the rare exchange whose shared secret has a leading zero byte
  /// (implementations differ on padding it); a service that answers NotSupported gets a `plain` one.
  static func open(_ bus: SecretServiceBus, call: ([DBusArgument]) throws -> GVariantReader) throws
    -> SecretSession
  {
    for _ in 0..<8 {
      var privateKey = [UInt8](repeating: 0, count: Int(NBCRYPTO_DH_BYTES))
      var publicKey = [UInt8](repeating: 0, count: Int(NBCRYPTO_DH_BYTES))
      var publicLength = 0
      guard nbcrypto_dh_keypair(&privateKey, &publicKey, &publicLength) == 1 else { throw Self.cryptoProblem }
      let reply: GVariantReader
      do {
        reply = try call([.string(dhAlgorithm), .variant(.bytes(Array(publicKey.prefix(publicLength))))])
      } catch let error as SecretServiceCallError where error.name == "org.freedesktop.DBus.Error.NotSupported" {
        return try plain(call)
      }
      guard let peer = reply.child(0)?.bytes, let path = reply.child(1)?.string else {
        throw BridgeError.unavailable("the Secret Service answered OpenSession with \(reply.type)")
      }
      var key = [UInt8](repeating: 0, count: Int(NBCRYPTO_SESSION_KEY_BYTES))
      switch nbcrypto_dh_session_key(privateKey, peer, peer.count, &key) {
      case 1: return SecretSession(path: path, key: key)
      case 2: _ = try? bus.call(SecretService.busName, path: path, interface: interface, method: "Close", [])
      default: throw BridgeError.unavailable("the Secret Service sent an unusable public key for its session")
      }
    }
    throw BridgeError.unavailable("no usable Diffie-Hellman exchange with the Secret Service in 8 tries")
  }

  private static func plain(_ call: ([DBusArgument]) throws -> GVariantReader) throws -> SecretSession {
    let reply = try call([.string("plain"), .variant(.string(""))])
    guard let path = reply.child(1)?.string else {
      throw BridgeError.unavailable("the Secret Service answered OpenSession with \(reply.type)")
    }
    return SecretSession(path: path, key: nil)
  }

  /// `org.freedesktop.Secret.Session`.
  static let interface = "org.freedesktop.Secret.Session"

  /// A `Secret` struct `(oayays)` carrying `value`, encrypted for the session when it has a key.
  func secret(_ value: [UInt8], contentType: String) throws -> DBusArgument {
    guard let key else { return .tuple([.objectPath(path), .bytes([]), .bytes(value), .string(contentType)]) }
    var iv = [UInt8](repeating: 0, count: Int(NBCRYPTO_BLOCK_BYTES))
    try SealedValue.randomBytes(&iv)
    var output = [UInt8](repeating: 0, count: value.count + Int(NBCRYPTO_BLOCK_BYTES))
    var length = 0
    guard nbcrypto_cbc(1, key, iv, value, value.count, &output, &length) == 1 else { throw Self.cryptoProblem }
    return .tuple([.objectPath(path), .bytes(iv), .bytes(Array(output.prefix(length))), .string(contentType)])
  }

  /// The value of a received `Secret` struct, decrypted when the session has a key; nil when it does not decrypt.
  func value(of secret: GVariantReader) -> [UInt8]? {
    guard let parameters = secret.child(1)?.bytes, let value = secret.child(2)?.bytes else { return nil }
    guard let key else { return value }
    guard parameters.count == Int(NBCRYPTO_BLOCK_BYTES) else { return nil }
    var output = [UInt8](repeating: 0, count: value.count + Int(NBCRYPTO_BLOCK_BYTES))
    var length = 0
    guard nbcrypto_cbc(0, key, parameters, value, value.count, &output, &length) == 1 else { return nil }
    return Array(output.prefix(length))
  }

  private static var cryptoProblem: BridgeError {
    BridgeError.unavailable(
      "cannot talk to the Secret Service securely: "
        + (nbcrypto_load_error().map { "libcrypto (OpenSSL 3) cannot be used: \(String(cString: $0))" }
          ?? "libcrypto refused the operation"))
  }
}
