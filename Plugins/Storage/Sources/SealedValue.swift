import CCrypto
import Glibc
import NBridgePlugin

/// A secure value as the database holds it: AES-256-GCM under the app's key from the
/// Secret Service, written as Base64 text of `version ‖ nonce ‖ ciphertext ‖ tag`.
///
/// The group and key are authenticated with the value (GCM's associated data), so a value
/// copied to another key or group in the file no longer opens.
enum SealedValue {
  /// The first byte of every sealed value: the format.
  static let version: UInt8 = 1

  /// Encrypts `json` (the value's JSON text) for `key` in `group` under `appKey`, with a fresh random nonce.
  static func seal(_ json: String, key: String, group: String, appKey: [UInt8]) throws -> String {
    var nonce = [UInt8](repeating: 0, count: Int(NBCRYPTO_NONCE_BYTES))
    try randomBytes(&nonce)
    let plaintext = Array(json.utf8)
    var ciphertext = [UInt8](repeating: 0, count: plaintext.count)
    var tag = [UInt8](repeating: 0, count: Int(NBCRYPTO_TAG_BYTES))
    let aad = associatedData(key: key, group: group)
    guard nbcrypto_seal(appKey, nonce, aad, aad.count, plaintext, plaintext.count, &ciphertext, &tag) == 1 else {
      throw BridgeError.unavailable("cannot encrypt the secure value of \"\(key)\": \(cryptoProblem)")
    }
    return Base64.encode([version] + nonce + ciphertext + tag)
  }

  /// The JSON text sealed in `text` for `key` in `group`; `unavailable` when `appKey` does not open it.
  static func open(_ text: String, key: String, group: String, appKey: [UInt8]) throws -> String {
    let nonceBytes = Int(NBCRYPTO_NONCE_BYTES)
    let tagBytes = Int(NBCRYPTO_TAG_BYTES)
    guard let sealed = Base64.decode(text), sealed.count >= 1 + nonceBytes + tagBytes, sealed[0] == version else {
      throw BridgeError.unavailable("the secure value of \"\(key)\" is damaged in the storage database")
    }
    let nonce = Array(sealed[1..<1 + nonceBytes])
    let ciphertext = Array(sealed[(1 + nonceBytes)..<(sealed.count - tagBytes)])
    let tag = Array(sealed[(sealed.count - tagBytes)...])
    var plaintext = [UInt8](repeating: 0, count: ciphertext.count)
    let aad = associatedData(key: key, group: group)
    guard nbcrypto_open(appKey, nonce, aad, aad.count, ciphertext, ciphertext.count, tag, &plaintext) == 1 else {
      if nbcrypto_load_error() != nil {
        throw BridgeError.unavailable("cannot decrypt the secure value of \"\(key)\": \(cryptoProblem)")
      }
      throw BridgeError.unavailable(
        "the secure value of \"\(key)\" does not open with this app's key in the Secret Service (the keyring was "
          + "reset, or the database came from another account or machine); remove it and store it again")
    }
    return String(decoding: plaintext, as: UTF8.self)
  }

  /// Fills `bytes` from the kernel's random source (`getrandom`).
  static func randomBytes(_ bytes: inout [UInt8]) throws {
    let status = nbcrypto_random(&bytes, bytes.count)
    guard status == 0 else { throw BridgeError.unavailable("getrandom failed: \(String(cString: strerror(status)))") }
  }

  /// The group and key, each preceded by its length (so no two pairs give the same bytes).
  private static func associatedData(key: String, group: String) -> [UInt8] {
    var data: [UInt8] = []
    for part in [group, key] {
      let bytes = Array(part.utf8)
      withUnsafeBytes(of: UInt32(bytes.count).bigEndian) { data += $0 }
      data += bytes
    }
    return data
  }

  /// Why libcrypto failed: it could not be opened, or it refused.
  static var cryptoProblem: String {
    nbcrypto_load_error().map { "libcrypto (OpenSSL 3) cannot be used: \(String(cString: $0))" }
      ?? "libcrypto refused the operation"
  }
}
