import NBridgePlugin
import NBridgeRuntime

/// What lets code written for the seed systems' pages run headless, as an extension of the
/// runtime: a run looks like a page (`window` and `self` are the global object, `alert`,
/// `confirm` and `prompt` print), and WKBridgeKit's `webkit.messageHandlers.WKBridge` posts its
/// JSON commands to the bridge (`wkbridge.js`, evaluated on the first read of `webkit`). Both
/// are global files: a window's page has WebKit's own `webkit` and dialogs, and gets neither.
package enum CompatExtension {
  /// The extension, as every headless run of the CLI and an in-process test runtime get it.
  package static func make() -> RuntimeExtension {
    RuntimeExtension(
      name: "compat", state: { _ in CompatState() },
      globalScripts: [.init(name: "page-shims", source: EmbeddedFiles.page_shims_js)],
      deferredScripts: [.init(name: "wkbridge", source: EmbeddedFiles.wkbridge_js)])
  }
}

/// The compatibility globals keep nothing for a run.
@BridgeActor
package final class CompatState {}
