import CWebKitGTK
import Glibc
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// Remote pages with the bridge (`remote` in the manifest): each listed `https` origin gets the
/// page script with a token of its own, so a message says which origin posted it; its calls are
/// checked against that origin's permissions, and only while the window shows a page of it.
extension AppWindow {
  /// A listed origin, its token and its permissions.
  struct RemotePage {
    let origin: String
    let token: String
    let permissions: Set<String>
  }

  /// Test-only: a PEM certificate `nbridge app` accepts for the listed origins' hosts (a test's
  /// own HTTPS server); nothing else is trusted beyond the system's store.
  static let testCertificateVariable = "NBRIDGE_TEST_TLS_CERT"

  /// Adds each listed origin's script to `manager` (and, under the test variable, trusts its certificate).
  func addRemotePages(context: UnsafeMutableRawPointer?, manager: UnsafeMutableRawPointer?) {
    let certificate = ProcessEnvironment.value(Self.testCertificateVariable)
    for remote in options.remote {
      let page = RemotePage(
        origin: remote.origin, token: RandomID.hex(byteCount: 16), permissions: Set(remote.permissions))
      remotePages.append(page)
      // WebKit matches a user script's URL pattern by host, whatever the port: the script itself
      // checks the whole origin before it does anything.
      let host = Self.host(of: remote.origin)
      let script = runtime.pageScript(token: page.token, origin: page.origin, permissions: page.permissions)
      nbw_content_manager_add_script(manager, script, "https://\(host)/*")
      if let certificate {
        var error: UnsafeMutablePointer<CChar>?
        if nbw_context_allow_certificate(context, certificate, host, &error) != 0 {
          runtime.report(2, "nbridge app: \(Self.testCertificateVariable): \(error.map { String(cString: $0) } ?? "?")")
          free(error)
        }
      }
    }
  }

  /// The message `text` without its token, and the permissions of the page that sent it (nil:
  /// the app's own page); nil when no page that may use the bridge sent it.
  func sender(of text: String) -> (body: Substring, permissions: Set<String>?)? {
    if text.hasPrefix(token) { return (text.dropFirst(token.count), nil) }
    if let devPage, text.hasPrefix(devPage.token) {
      // The dev server's page stands for the app's own, while the window shows one of its pages.
      guard let uri = view.flatMap({ nbw_view_uri($0) }).map({ String(cString: $0) }),
        Self.origin(of: uri) == devPage.origin
      else { return nil }
      return (text.dropFirst(devPage.token.count), nil)
    }
    guard let page = remotePages.first(where: { text.hasPrefix($0.token) }) else { return nil }
    // The token reached a page of the listed origin only; the window must still show one.
    guard let uri = view.flatMap({ nbw_view_uri($0) }).map({ String(cString: $0) }),
      Self.origin(of: uri) == page.origin
    else { return nil }
    return (text.dropFirst(page.token.count), page.permissions)
  }

  /// Whether `origin` is a listed remote origin (its pages may load in the window).
  func isRemote(_ origin: String) -> Bool {
    options.remote.contains { $0.origin == origin } || devPage?.origin == origin
  }

  /// `--dev-url`: the dev server's origin gets the page script with a token of its own and the
  /// app's permissions (the script checks the whole origin; WebKit's pattern matches the host).
  func addDevServerPage(manager: UnsafeMutableRawPointer?) {
    guard let url = options.devURL else { return }
    let page = (origin: Self.origin(of: url), token: RandomID.hex(byteCount: 16))
    devPage = page
    let script = runtime.pageScript(token: page.token, origin: page.origin)
    nbw_content_manager_add_script(manager, script, "http://\(Self.host(of: page.origin))/*")
  }

  /// The host of `https://host[:port]` (an IPv6 literal keeps its brackets).
  static func host(of origin: String) -> String {
    let authority = origin.drop { $0 != "/" }.drop { $0 == "/" }
    if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return String(authority[...close]) }
    return String(authority.prefix { $0 != ":" })
  }
}
