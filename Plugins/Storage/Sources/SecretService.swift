import Glibc
import NBridgePlugin

/// The app's secure-storage key in the user's Secret Service (`org.freedesktop.secrets`,
/// as gnome-keyring and KeePassXC provide it): found by its attributes, else made and stored.
///
/// Blocking: run it off the loop. Every way it cannot hand out the key is `unavailable`
/// with what to do; it never prompts (a locked keyring is reported, not unlocked).
struct SecretService {
  static let busName = "org.freedesktop.secrets"
  static let servicePath = "/org/freedesktop/secrets"
  static let serviceInterface = "org.freedesktop.Secret.Service"
  static let itemInterface = "org.freedesktop.Secret.Item"
  static let collectionInterface = "org.freedesktop.Secret.Collection"

  /// The session bus address.
  let address: String
  /// The app whose key this is.
  let appID: String

  /// The attributes the key's item is found by.
  var attributes: [String: String] { ["application": "nbridge", "app-id": appID] }

  /// The key: the Secret Service's item for this app, or a new random one stored there.
  func appKey() throws -> [UInt8] {
    let bus = try SecretServiceBus(address: address)
    let session = try openSession(bus)
    defer {
      _ = try? bus.call(Self.busName, path: session.path, interface: SecretSession.interface, method: "Close", [])
    }
    if let key = try existingKey(bus, session: session) { return key }

    let collection =
      try call(bus, Self.servicePath, Self.serviceInterface, "ReadAlias", [.string("default")])
      .child(0)?.string ?? "/"
    guard collection != "/" else {
      throw BridgeError.unavailable(
        "the Secret Service has no default keyring to keep this app's secure-storage key in; create one "
          + "(e.g. with Seahorse) and retry")
    }
    let locked = try call(
      bus, collection, "org.freedesktop.DBus.Properties", "Get",
      [.string(Self.collectionInterface), .string("Locked")]
    ).child(0)?.bool
    if locked == true { throw Self.locked }

    var key = [UInt8](repeating: 0, count: 32)
    try SealedValue.randomBytes(&key)
    let properties: [String: DBusArgument] = [
      "org.freedesktop.Secret.Item.Label": .string("nbridge secure storage key for \(appID)"),
      "org.freedesktop.Secret.Item.Attributes": .stringMap(attributes),
    ]
    let secret = try session.secret(key, contentType: "application/octet-stream")
    let created = try call(
      bus, collection, Self.collectionInterface, "CreateItem", [.properties(properties), secret, .bool(false)])
    guard let item = created.child(0)?.string, item != "/" else {
      throw BridgeError.unavailable(
        "the Secret Service wants to ask the user before it stores this app's secure-storage key; nbridge never "
          + "prompts: unlock the default keyring and retry")
    }
    // Two processes of the app may have made a key at the same moment: both keep the item
    // that sorts first, and the other is deleted, so they agree before either encrypts anything.
    guard let kept = try existingKey(bus, session: session) else { return key }
    if kept != key {
      _ = try? bus.call(Self.busName, path: item, interface: Self.itemInterface, method: "Delete", [])
    }
    return kept
  }

  /// Opens a session that encrypts the secrets it carries (`SecretSession`).
  private func openSession(_ bus: SecretServiceBus) throws -> SecretSession {
    do {
      return try SecretSession.open(bus) { arguments in
        try bus.call(
          Self.busName, path: Self.servicePath, interface: Self.serviceInterface, method: "OpenSession", arguments)
      }
    } catch let error as SecretServiceCallError where Self.missingNames.contains(error.name ?? "") {
      throw BridgeError.unavailable(
        "secure storage needs the Secret Service (org.freedesktop.secrets), and none runs on the session bus"
          + "; start gnome-keyring or another Secret Service provider and unlock it")
    } catch let error as SecretServiceCallError {
      throw BridgeError.unavailable("the Secret Service refused OpenSession: \(error.message)")
    }
  }

  /// The key of the first of this app's items, nil when there is none; `unavailable` when they are all locked.
  private func existingKey(_ bus: SecretServiceBus, session: SecretSession) throws -> [UInt8]? {
    let found = try call(bus, Self.servicePath, Self.serviceInterface, "SearchItems", [.stringMap(attributes)])
    let unlocked = (found.child(0)?.objectPaths ?? []).sorted(by: Self.creationOrder)
    guard let item = unlocked.first else {
      if !(found.child(1)?.objectPaths ?? []).isEmpty { throw Self.locked }
      return nil
    }
    let reply = try call(bus, item, Self.itemInterface, "GetSecret", [.objectPath(session.path)])
    guard let secret = reply.child(0), let key = session.value(of: secret), key.count == 32 else {
      throw BridgeError.unavailable(
        "the Secret Service item \(item) for this app's secure-storage key does not hold a 32-byte key; delete it "
          + "only if no secure value is worth keeping (they cannot be read without it)")
    }
    return key
  }

  private func call(
    _ bus: SecretServiceBus, _ path: String, _ interface: String, _ method: String, _ arguments: [DBusArgument]
  ) throws -> GVariantReader {
    do {
      return try bus.call(Self.busName, path: path, interface: interface, method: method, arguments)
    } catch {
      if error.name == "org.freedesktop.Secret.Error.IsLocked" { throw Self.locked }
      throw BridgeError.unavailable("the Secret Service failed \(method): \(error.message)")
    }
  }

  /// Item paths end in a number that grows (`.../login/7`): shorter first, then by text.
  private static func creationOrder(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.count != rhs.utf8.count ? lhs.utf8.count < rhs.utf8.count : lhs < rhs
  }

  private static let missingNames: Set<String> = [
    "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
  ]

  private static let locked = BridgeError.unavailable(
    "the keyring that keeps this app's secure-storage key is locked; nbridge never prompts: unlock it (log in "
      + "to the desktop, or open Seahorse) and retry")
}
