import Glibc
import CWebKitGTK
import NBridgePlugin

/// Where the page may go: the app's own scheme and the manifest's `allowNavigation` and `remote`
/// origins load in the window (a new window of them: a popup window); a link to anything else
/// (`https:`, `mailto:`, ...) opens with `xdg-open`.
extension AppWindow {
  /// Decides a navigation (`decision` 0) or a new window (1) to `uri`; true lets it load here.
  func allows(decision: Int32, navigation: Int32, userGesture: Bool, uri: String) -> Bool {
    let own = uri.hasPrefix(origin + "/") || uri == origin
    if decision == 1 && (own || isListed(uri)) {
      // `window.open` or a `target=_blank` link to a page the app may show: a popup window.
      _ = try? openWindow(url: uri, title: nil, navigation: true) { _ in }
      return false
    }
    if own { return true }
    let scheme = uri.prefix { $0 != ":" }.lowercased()
    if ["about", "data", "blob"].contains(scheme) { return decision == 0 }
    let web = scheme == "http" || scheme == "https"
    if isListed(uri) { return true }
    // An http(s) frame that is not the user following a link (an iframe, a redirect) may load:
    // it gets no nbridge. A link, a form, a new window or another scheme leaves the app.
    let leaving = decision == 1 || navigation == 0 || navigation == 1 || !web
    if web && !leaving { return true }
    openOutside(uri)
    return false
  }

  /// Whether `uri` is an http(s) page of an `allowNavigation` or `remote` origin.
  func isListed(_ uri: String) -> Bool {
    let scheme = uri.prefix { $0 != ":" }.lowercased()
    guard scheme == "http" || scheme == "https" else { return false }
    let origin = Self.origin(of: uri)
    return options.allowNavigation.contains(origin) || isRemote(origin)
  }

  /// Hands `uri` to the desktop (`xdg-open`), with a line on stderr.
  func openOutside(_ uri: String) {
    runtime.report(2, "nbridge app: opening \(uri) outside the app (xdg-open)")
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("xdg-open"), strdup(uri), nil]
    defer { for arg in argv { free(arg) } }
    argv.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { pointer in
        if nbw_spawn(pointer) != 0 { runtime.report(2, "nbridge app: could not start xdg-open") }
      }
    }
  }

  /// `scheme://host[:port]` of an absolute URL, lowercased.
  static func origin(of uri: String) -> String {
    guard let colon = uri.firstIndex(of: ":"), uri[colon...].hasPrefix("://") else { return uri.lowercased() }
    let rest = uri[uri.index(colon, offsetBy: 3)...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    return (uri[..<colon] + "://" + authority).lowercased()
  }
}
