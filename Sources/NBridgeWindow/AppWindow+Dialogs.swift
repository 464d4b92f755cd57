import CWebKitGTK
import Glibc
import NBridgePlugin

/// The `dialog` service's GTK dialogs, over the app's main window: a file chooser and a message
/// dialog, each answering its `done` once (the request rides through C as a retained box).
extension AppWindow {
  func chooseFiles(_ request: FileDialogRequest, _ done: @escaping @BridgeActor ([String]?) -> Void) {
    let mode: Int32 = request.mode == .save ? 1 : request.mode == .folder ? 2 : 0
    let filters = request.filters.map { ([$0.name] + $0.patterns).joined(separator: "\n") }
    let box = Unmanaged.passRetained(ChosenFiles(done)).toOpaque()
    withCStrings(filters) { list in
      nbw_file_dialog(
        window, mode, request.title, request.multiple ? 1 : 0, request.folder, request.name, list,
        Int32(filters.count), onFilesChosen, box)
    }
  }

  func showMessage(_ request: MessageDialogRequest, _ done: @escaping @BridgeActor (Int?) -> Void) {
    let kind: Int32 =
      switch request.kind {
      case .info: 0
      case .warning: 1
      case .question: 2
      case .error: 3
      }
    let box = Unmanaged.passRetained(ChosenButton(done)).toOpaque()
    withCStrings(request.buttons) { list in
      nbw_message_dialog(
        window, kind, request.title, request.message, list, Int32(request.buttons.count),
        Int32(request.defaultButton ?? -1), onButtonChosen, box)
    }
  }
}

/// Runs `body` with `strings` as a C array of C strings, valid for the call.
private func withCStrings(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Void) {
  let copies = strings.map { strdup($0) }
  defer { copies.forEach { free($0) } }
  let pointers = copies.map { UnsafePointer($0) }
  pointers.withUnsafeBufferPointer { body($0.baseAddress) }
}

/// What a file chooser's answer goes to.
@BridgeActor
private final class ChosenFiles {
  let done: @BridgeActor ([String]?) -> Void
  init(_ done: @escaping @BridgeActor ([String]?) -> Void) { self.done = done }
}

/// What a message dialog's answer goes to.
@BridgeActor
private final class ChosenButton {
  let done: @BridgeActor (Int?) -> Void
  init(_ done: @escaping @BridgeActor (Int?) -> Void) { self.done = done }
}

private let onFilesChosen: nbw_files_cb = { paths, count, data in
  let chosen = paths.map { list in (0..<Int(count)).compactMap { list[$0].map { String(cString: $0) } } }
  nonisolated(unsafe) let data = data
  BridgeActor.assumeIsolated { Unmanaged<ChosenFiles>.fromOpaque(data!).takeRetainedValue().done(chosen) }
}

private let onButtonChosen: nbw_choice_cb = { button, data in
  nonisolated(unsafe) let data = data
  BridgeActor.assumeIsolated {
    Unmanaged<ChosenButton>.fromOpaque(data!).takeRetainedValue().done(button >= 0 ? Int(button) : nil)
  }
}
