import Dispatch
import Glibc
import NBridgePlugin

/// The secure-storage keys of this process, one per app, fetched from the Secret Service on
/// a thread of their own and kept in memory from then on.
///
/// Callers wait together: one fetch answers every call made while it runs. A fetch that fails
/// is not kept, so the next secure call asks again (the user may have unlocked the keyring since).
@BridgeActor
final class AppKeys {
  /// The process's keys.
  static let shared = AppKeys()

  /// What fetches a key (the Secret Service by default; blocking, run off the loop).
  typealias Fetch = @Sendable (_ address: String, _ appID: String) throws -> [UInt8]

  private var keys: [String: [UInt8]] = [:]
  private var waiting: [String: [@BridgeActor (Result<[UInt8], any Error>) -> Void]] = [:]
  private let queue = DispatchQueue(label: "nbridge.storage.secret-service")
  private let fetch: Fetch

  init(fetch: @escaping Fetch = AppKeys.fromDesktop) { self.fetch = fetch }

  /// Inside a Flatpak sandbox (`/.flatpak-info`), the Secret portal's secret for the app;
  /// elsewhere the app's key item in the Secret Service.
  static let fromDesktop: Fetch = { address, appID in
    if access("/.flatpak-info", F_OK) == 0 { return try SecretPortal(address: address).appKey() }
    return try SecretService(address: address, appID: appID).appKey()
  }

  /// Calls `body` on the loop with `appID`'s key: at once when it is known, else once the
  /// Secret Service on the session bus at `address` (nil: none) has answered.
  func withKey(
    appID: String, address: String?, _ body: @escaping @BridgeActor (Result<[UInt8], any Error>) -> Void
  ) {
    if let key = keys[appID] { return body(.success(key)) }
    guard let address, !address.isEmpty else {
      return body(
        .failure(
          BridgeError.unavailable(
            "secure storage needs the Secret Service, and there is no session bus (DBUS_SESSION_BUS_ADDRESS is unset)"))
      )
    }
    if waiting[appID] != nil {
      waiting[appID]!.append(body)
      return
    }
    waiting[appID] = [body]
    let fetch = self.fetch
    queue.async {
      let result = Result { try fetch(address, appID) }
      PluginContext.post { [self] in
        if case .success(let key) = result { keys[appID] = key }
        let waiters = waiting.removeValue(forKey: appID) ?? []
        for waiter in waiters { waiter(result) }
      }
    }
  }

  /// Returns once no call waits for `appID`'s key (each has queued its write or failed).
  func settled(appID: String) async {
    guard waiting[appID] != nil else { return }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      waiting[appID]!.append { _ in done.resume() }
    }
  }

  /// Runs `body` after every call waiting for `appID`'s key, or at once when none is.
  func inOrder(appID: String, _ body: @escaping @BridgeActor () -> Void) {
    if waiting[appID] != nil {
      waiting[appID]!.append { _ in body() }
    } else {
      body()
    }
  }
}
