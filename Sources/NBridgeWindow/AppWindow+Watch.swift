import CWebKitGTK
import NBridgeModuleSyntax
import NBridgeModules
import NBridgeRuntime
import NBridgeSystem

/// `nbridge app --watch`: a change under the app's folder reloads the page (storage is on disk,
/// the plugins keep running: only the page starts again), once the changes have settled for
/// `settle`. A changed script that does not parse is shown over the page instead, which keeps
/// running until the file is fixed.
extension AppWindow {
  static let settle: Duration = .milliseconds(60)

  func watchFolder() {
    guard let watcher = FolderWatcher(root: folder.root) else {
      runtime.report(2, "nbridge app: --watch: cannot watch \(folder.root) (inotify)")
      return
    }
    self.watcher = watcher
    _ = runtime.watchReadable(watcher.descriptor) { [weak self] in self?.folderChanged() }
  }

  func folderChanged() {
    guard let watcher else { return }
    for path in watcher.changes() where !changed.contains(path) { changed.append(path) }
    guard !changed.isEmpty else { return }
    if let watchTimer { runtime.cancelTimer(watchTimer) }
    watchTimer = runtime.addTimer(after: AppWindow.settle, repeating: nil) { [weak self] in self?.reloadForChanges() }
  }

  func reloadForChanges() {
    watchTimer = nil
    let paths = changed
    changed = []
    guard let view else { return }
    if let problem = paths.lazy.compactMap({ SourceCheck.problem(ofFile: $0) }).first {
      runtime.report(2, "nbridge app: --watch: \(problem.description); the page keeps running until it is fixed")
      evaluateInPage(AppWindow.overlayScript(problem.description))
      return
    }
    // Editors' and sed's temporary files come and go within the batch: only what is there is named.
    let names = paths.filter(fileExists).map { String($0.dropFirst(folder.root.count + 1)) }
    runtime.report(2, "nbridge app: --watch: \(names.isEmpty ? "files removed" : names.joined(separator: ", ") + " changed"); reloading")
    nbw_view_reload(view)
  }

  /// A script that shows `text` over the page (replacing what it showed before).
  static func overlayScript(_ text: String) -> String {
    """
    (() => {
      const id = 'nbridge-watch-error';
      document.getElementById(id)?.remove();
      const box = document.createElement('pre');
      box.id = id;
      box.textContent = \(jsonQuoted(text)) + '\\n\\nThe page keeps running; it reloads once the file is fixed.';
      box.style.cssText = 'position:fixed;inset:0;margin:0;z-index:2147483647;padding:2em;overflow:auto;' +
        'background:#8b0000;color:#fff;font:14px/1.5 monospace;white-space:pre-wrap';
      document.documentElement.appendChild(box);
    })();
    """
  }
}
