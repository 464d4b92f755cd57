import CCrypto
import Glibc
import NBridgePlugin

/// The app's secure-storage key inside a Flatpak sandbox, from the Secret portal
/// (`org.freedesktop.portal.Secret.RetrieveSecret`): the portal's backend (gnome-keyring's)
/// writes a secret of this app's own, kept in the user's keyring under the sandbox's app id,
/// into a pipe nbridge passes; the key is HKDF-SHA256 of it. Outside a sandbox the portal is not
/// used: it names every unsandboxed caller with the empty app id, so all of them would share
/// one secret.
///
/// Blocking: run it off the loop.
struct SecretPortal {
  static let busName = "org.freedesktop.portal.Desktop"
  static let objectPath = "/org/freedesktop/portal/desktop"
  static let interface = "org.freedesktop.portal.Secret"
  /// How long the portal may take to answer (its backend may ask the user to unlock the keyring).
  static let timeoutMilliseconds: Int32 = 60_000
  /// What the storage key is derived for (HKDF's `info`).
  static let keyPurpose = Array("nbridge secure storage key".utf8)

  /// The session bus address.
  let address: String

  /// The key, or `unavailable` naming why the portal gave no secret (`portalMissing` when the
  /// session bus has no Secret portal at all).
  func appKey() throws -> [UInt8] {
    let bus = try SecretServiceBus(address: address)
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw BridgeError.unavailable("cannot make a pipe for the Secret portal: \(String(cString: strerror(errno)))")
    }
    defer { close(ends[0]) }
    // Not inherited by a program the app starts meanwhile (it would hold the pipe open).
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    let token = "nbridge_secret"
    let sender = bus.uniqueName.dropFirst().map { $0 == "." ? "_" : $0 }
    let response: UInt32?
    do {
      defer { close(ends[1]) }
      response = try bus.request(
        Self.busName, path: Self.objectPath, interface: Self.interface, method: "RetrieveSecret",
        [.handle(0), .properties(["handle_token": .string(token)])], passing: ends[1],
        requestPath: "\(Self.objectPath)/request/\(String(sender))/\(token)", timeout: Self.timeoutMilliseconds)
    } catch let error where Self.missing.contains(error.name ?? "") {
      throw Self.portalMissing
    } catch {
      throw BridgeError.unavailable("the Secret portal refused RetrieveSecret: \(error.message)")
    }
    guard let response else {
      throw BridgeError(.timeout, "the Secret portal did not answer within \(Self.timeoutMilliseconds / 1000) s")
    }
    // On success the backend has written the secret and closed its end before the portal answers.
    let secret = response == 0 ? try Self.readToEnd(ends[0]) : []
    guard secret.count >= 16 else {
      throw BridgeError.unavailable(
        "the Secret portal gave no secret for this app (response \(response): its keyring is locked and was "
          + "not unlocked, or the portal's backend failed); unlock the keyring and retry")
    }
    var key = [UInt8](repeating: 0, count: 32)
    guard nbcrypto_hkdf_sha256(secret, secret.count, Self.keyPurpose, Self.keyPurpose.count, &key) == 1 else {
      throw BridgeError.unavailable("cannot derive the secure-storage key: \(SealedValue.cryptoProblem)")
    }
    return key
  }

  /// The session bus has no Secret portal. The Secret Service is not tried instead: a key from
  /// it would differ from the portal's, and values stored under one could not be read under
  /// the other once the portal appears.
  static let portalMissing = BridgeError.unavailable(
    "secure storage in a Flatpak sandbox needs the Secret portal (org.freedesktop.portal.Secret), and "
      + "xdg-desktop-portal offers none here (it needs a backend of org.freedesktop.impl.portal.Secret, such as "
      + "gnome-keyring's)")

  private static let missing: Set<String> = [
    "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
    "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownMethod",
    "org.freedesktop.DBus.Error.UnknownObject",
  ]

  /// Everything written to `fd` until every writer closed it (each read within 5 s).
  private static func readToEnd(_ fd: Int32) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 256)
    var waitFor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while bytes.count <= 4096 {
      let ready = poll(&waitFor, 1, 5_000)
      if ready < 0, errno == EINTR { continue }
      guard ready > 0 else {
        throw BridgeError(.timeout, "the Secret portal's backend answered but left its end of the pipe open")
      }
      let count = read(fd, &buffer, buffer.count)
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    buffer.withUnsafeMutableBytes { _ = memset($0.baseAddress!, 0, $0.count) }
    return bytes
  }
}
