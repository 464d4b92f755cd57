import NBridgePlugin

/// How `nbridge app` shows an app: the page, the window, and the automation flags.
package struct WindowOptions: Sendable {
  /// The page's HTML file.
  package var page: String
  /// The window's title.
  package var title: String
  /// The window's size in pixels.
  package var width = 1024
  package var height = 768
  /// Whether the user may resize the window.
  package var resizable = true
  /// The smallest size the user may give the window (nil: the page's own minimum).
  package var minWidth: Int?
  package var minHeight: Int?
  /// Whether the window manager draws its frame and title bar.
  package var decorations = true
  /// Whether the window's place and state are saved when it closes and restored at the next launch.
  package var remembersState = true
  /// Write a PNG of the page here once it has loaded (and `script` has settled), then exit 0.
  package var screenshot: String?
  /// A file evaluated in the page after load as the body of an async function.
  package var script: String?
  /// Exit when `script` settles.
  package var exitAfterScript = false
  /// Origins (`https://example.com`) the page may navigate to inside the window.
  package var allowNavigation: [String] = []
  /// `https` origins whose pages get `nbridge`, each with its permissions (`remote`).
  package var remote: [RemoteOrigin] = []

  /// Development: WebKit's Web Inspector opened with the window (`--inspect`).
  package var inspect = false

  /// Development: "Inspect Element" in the page's context menu (WebKit's developer extras): set
  /// by every development flag (`--dev`, `--dev-url`, `--watch`, `--inspect`), never for a plain
  /// `nbridge app` or a bundled app.
  package var inspectElement = false

  /// Development: the bundler's dev server's page (`http://` on a loopback host), loaded instead
  /// of the folder's, its origin given the bridge as the app's own page (`--dev-url`).
  package var devURL: String?

  /// Development: reload the page when a file of the app's folder changes (`--watch`).
  package var watch = false

  /// Options for the page at `page`, titled `title`.
  package init(page: String, title: String) {
    self.page = page
    self.title = title
  }

  /// Under automation (`--script`, `--screenshot`) dialogs print and answer at once.
  var automated: Bool { screenshot != nil || script != nil }
}
