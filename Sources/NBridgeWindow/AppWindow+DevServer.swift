import CWebKitGTK
import NBridgeAppSetup
import NBridgeModuleSyntax
import NBridgeRuntime

/// `--dev-url`: the window follows the dev server through its restarts. While it answers, it is
/// probed every `probeInterval` (a TCP connection, closed before any request); once it does not
/// (stopped, restarting, or a load of its page failed), the window says it is waiting for it and
/// probes again after `firstRetry`, doubling up to `lastRetry`, then loads the page again.
extension AppWindow {
  static let probeInterval: Duration = .seconds(1)
  static let firstRetry: Duration = .milliseconds(100)
  static let lastRetry: Duration = .seconds(2)
  /// How long a probe waits for the server to accept (a loopback host answers or refuses at once).
  static let probeTimeout: Int32 = 200

  /// While the dev server does not answer: the page to load once it does, and the next wait.
  struct DevServerWait {
    var uri: String
    var delay: Duration
  }

  func followDevServer() {
    guard options.devURL != nil else { return }
    scheduleDevProbe(after: Self.probeInterval)
  }

  func scheduleDevProbe(after delay: Duration) {
    if let devProbe { runtime.cancelTimer(devProbe) }
    devProbe = runtime.addTimer(after: delay, repeating: nil) { [weak self] in self?.probeDevServer() }
  }

  func probeDevServer() {
    devProbe = nil
    guard let url = options.devURL, let view else { return }
    let answers = DevServerURL.answers(url, milliseconds: Self.probeTimeout)
    switch (devWait, answers) {
    case (nil, true):
      scheduleDevProbe(after: Self.probeInterval)
    case (nil, false):
      // The page shown, once it answers; the dev URL when the window left the server's pages.
      let shown = nbw_view_uri(view).map { String(cString: $0) }
      let page = shown.flatMap { Self.origin(of: $0) == devPage?.origin ? $0 : nil }
      startWaiting(uri: page ?? url, replacingPage: false)
    case (var wait?, false):
      wait.delay = min(wait.delay * 2, Self.lastRetry)
      devWait = wait
      scheduleDevProbe(after: wait.delay)
    case (let wait?, true):
      devWait = nil
      runtime.report(2, "nbridge app: the dev server at \(url) answers again; reloading")
      nbw_view_load(view, wait.uri)
      scheduleDevProbe(after: Self.probeInterval)
    }
  }

  /// Says the window waits for the dev server: over the page still shown, or in place of one
  /// that failed to load.
  func startWaiting(uri: String, replacingPage: Bool) {
    guard let url = options.devURL else { return }
    if devWait == nil {
      runtime.report(
        2, "nbridge app: waiting for the dev server at \(url) (it does not answer); the page reloads once it does")
      scheduleDevProbe(after: Self.firstRetry)
    }
    devWait = DevServerWait(uri: uri, delay: devWait?.delay ?? Self.firstRetry)
    if replacingPage {
      nbw_view_load_alternate(view, Self.waitingPage(url), uri)
    } else {
      evaluateInPage(Self.waitingScript(url))
    }
  }

  /// A load of the dev server's page failed: when the server does not answer, the window shows
  /// that it waits for it (1); any other failure gets WebKit's error page (0).
  func loadFailed(uri: String) -> Bool {
    guard let devPage, Self.origin(of: uri) == devPage.origin, let url = options.devURL else { return false }
    guard devWait != nil || !DevServerURL.answers(url, milliseconds: Self.probeTimeout) else { return false }
    startWaiting(uri: uri, replacingPage: true)
    return true
  }

  static func waitingText(_ url: String) -> String {
    "Waiting for the dev server at \(url)\u{2026} The page reloads once it answers."
  }

  /// A bar over the top of the page still shown.
  static func waitingScript(_ url: String) -> String {
    """
    (() => {
      const id = 'nbridge-dev-waiting';
      document.getElementById(id)?.remove();
      const bar = document.createElement('div');
      bar.id = id;
      bar.textContent = \(jsonQuoted(waitingText(url)));
      bar.style.cssText = 'position:fixed;top:0;left:0;right:0;z-index:2147483647;padding:.6em 1em;' +
        'background:#333;color:#fff;font:14px/1.4 sans-serif';
      document.documentElement.appendChild(bar);
    })();
    """
  }

  /// The page shown in place of one that failed to load.
  static func waitingPage(_ url: String) -> String {
    let text = waitingText(url).replacing("&", with: "&amp;").replacing("<", with: "&lt;")
    return """
      <!doctype html><meta charset="utf-8"><title>Waiting for the dev server</title>
      <body style="margin:0;padding:0 2em;display:grid;place-items:center;height:100vh;
        background:#333;color:#fff;font:16px/1.5 sans-serif">
      <p id="nbridge-dev-waiting">\(text)</p></body>
      """
  }
}
