import CWebKitGTK
import NBridgePlugin
import NBridgeRuntime
import NBridgeSystem

/// The app's URI scheme: `nbridge://<app id>/<path>` serves the page's folder, and nothing else.
extension AppWindow {
  func serve(_ request: UnsafeMutableRawPointer?, uri: String, path: String) {
    if let tests, uri.hasPrefix(origin + "/"), path.hasPrefix(PageTestSession.prefix) {
      return tests.serve(request, path: path)
    }
    guard uri.hasPrefix(origin + "/"), let file = folder.file(forRequestPath: path), let bytes = PageFolder.contents(of: file) else {
      let body = Array("Not found: \(path)\n".utf8)
      return nbw_scheme_respond(request, 404, "text/plain; charset=utf-8", body, body.count)
    }
    nbw_scheme_respond(request, 200, PageFolder.mimeType(of: file), bytes, bytes.count)
  }
}
