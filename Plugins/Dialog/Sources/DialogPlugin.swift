import NBridgeFS
import NBridgePlugin

/// `nbridge.dialog`: native dialogs: files to open, a file to save to, a message, a question.
/// In `nbridge app` the XDG desktop portal's file chooser when one answers on the session bus,
/// else GTK's file chooser; GTK's message dialogs over the app's window; a headless run has none (`unavailable`)
/// unless answers are simulated (`nbridge test`, or `NBRIDGE_DIALOG=simulate`): then `simulate`
/// queues what the next dialogs answer. Cancelling resolves `null` (`false` for `confirm`).
@BridgeActor
public final class DialogPlugin: Plugin {
  /// The service name, read at every start; the definition is built on first use.
  public nonisolated static let declaration = PluginDeclaration(service: "dialog")
  /// `open`, `save`, `message`, `confirm` and `simulate`.
  public nonisolated static let definition = PluginDefinition<DialogPlugin>(
    declaration,
    summary: "Native dialogs: files to open, a file to save to, a message, a question; cancel resolves null.",
    actions: actions)

  let context: PluginContext
  /// The answers `simulate` queued, when this run simulates dialogs.
  var simulated: [JSONValue]?
  /// The desktop portal's file chooser, unless `NBRIDGE_DIALOG=gtk`.
  let portal: PortalFileChooser?

  /// Simulates dialogs under `nbridge test` and when `NBRIDGE_DIALOG=simulate`.
  public init(context: PluginContext) throws {
    self.context = context
    let choice = context.environment["NBRIDGE_DIALOG"]
    if context.headless || choice == "simulate" { simulated = [] }
    portal =
      choice == "gtk"
      ? nil
      : PortalFileChooser(
        address: context.environment["DBUS_SESSION_BUS_ADDRESS"], mainContext: context.glibMainContext)
  }

  /// Shows `request` as a file chooser: the portal's when one answers, else GTK's over the
  /// window (or takes the next simulated answer, checked by `fits`); `done` gets the answer, or
  /// the error.
  func chooseFiles(
    _ request: FileDialogRequest, action: String, fits: (JSONValue) -> Bool,
    _ done: @escaping @BridgeActor (Result<JSONValue, BridgeError>) -> Void
  ) throws(BridgeError) {
    // What the user picks joins the app's file scope (fs), for this launch and the next ones. A
    // path that cannot be recorded (its folder gone) is answered all the same; fs then refuses it.
    let grants = FileGrants(dataDirectory: context.dataDirectory)
    let folder = request.mode == .folder
    let context = self.context
    let done: @BridgeActor (Result<JSONValue, BridgeError>) -> Void = { outcome in
      if case .success(let answer) = outcome {
        for path in answer.stringValue.map({ [$0] }) ?? (answer.arrayValue ?? []).compactMap(\.stringValue) {
          do throws(BridgeError) {
            try grants.record(path, folder: folder)
          } catch where error.code == .unavailable {
            context.warn("the pick of \(path) is not kept for fs: \(error.message)")
          } catch {}
        }
      }
      done(outcome)
    }
    if simulated != nil { return done(.success(try nextSimulated(action: action, fits: fits))) }
    guard let window = context.window else { throw Self.noWindow }
    let portal = self.portal
    Task {
      if let portal, await portal.isAvailable() {
        do {
          done(.success(Self.answer(try await portal.choose(request), multiple: request.multiple)))
        } catch {
          done(.failure(error as? BridgeError ?? .unavailable("\(error)")))
        }
        return
      }
      window.chooseFiles(request) { paths in done(.success(Self.answer(paths, multiple: request.multiple))) }
    }
  }

  /// Shows `request` as a message dialog (or takes the next simulated answer); `done` gets the
  /// index of the button pressed, nil when it was closed.
  func showMessage(
    _ request: MessageDialogRequest, action: String, fits: (JSONValue) -> Bool,
    _ done: @escaping @BridgeActor (JSONValue) -> Void, answer: @escaping @BridgeActor (Int?) -> JSONValue
  ) throws(BridgeError) {
    if simulated != nil { return done(try nextSimulated(action: action, fits: fits)) }
    guard let window = context.window else { throw Self.noWindow }
    window.showMessage(request) { button in done(answer(button)) }
  }

  static let noWindow = BridgeError.unavailable(
    "this run has no window to show a dialog over (nbridge app has one); tests simulate answers with dialog.simulate"
      + " under nbridge test or NBRIDGE_DIALOG=simulate")

  /// What a file chooser resolves: null, a path, or the paths when `multiple`.
  static func answer(_ paths: [String]?, multiple: Bool) -> JSONValue {
    guard let paths, !paths.isEmpty else { return .null }
    return multiple ? .array(paths.map { .string($0) }) : .string(paths[0])
  }

  /// The next simulated answer, when it fits the dialog's result.
  private func nextSimulated(action: String, fits: (JSONValue) -> Bool) throws(BridgeError) -> JSONValue {
    guard var queue = simulated, !queue.isEmpty else {
      throw .unavailable("no simulated answer is left for dialog.\(action) (queue some with dialog.simulate)")
    }
    let answer = queue.removeFirst()
    simulated = queue
    guard fits(answer) else {
      throw .invalidParameter("answers", "the simulated answer \(answer.jsonText) does not fit dialog.\(action)")
    }
    return answer
  }
}
