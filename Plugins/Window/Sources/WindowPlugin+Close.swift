import NBridgePlugin

/// `closeRequested`: while the event has a listener, a window the user asks to close stays open
/// until the page has run its listeners; it closes then unless one of them returned `false` or
/// called `keepOpen({id})`. A page that does not answer within `closeAnswerLimit` (hung) does not
/// keep it open.
extension WindowPlugin {
  /// A close request being decided.
  struct PendingClose {
    var kept = false
    let limit: LoopTimer
  }

  func closeRequested(_ id: String) {
    guard pendingCloses[id] == nil, let window = context.window else { return }
    let limit = context.setTimer(after: Self.closeAnswerLimit) { [weak self] in self?.decideClose(id) }
    pendingCloses[id] = PendingClose(limit: limit)
    context.emit("closeRequested", WindowID(id: id))
    window.afterPageScripts { [weak self] in self?.decideClose(id) }
  }

  /// Closes window `id` unless a listener kept it open.
  func decideClose(_ id: String) {
    guard let pending = pendingCloses.removeValue(forKey: id) else { return }
    pending.limit.cancel()
    if !pending.kept { try? context.window?.closeWindow(id: id) }
  }

  /// `keepOpen`: `result` is a listener's return value (`false` keeps the window open, anything
  /// else says nothing); without it the call itself keeps it open.
  func keepOpen(_ options: KeepOpenOptions) -> Bool {
    if let result = options.result, result != .bool(false) { return false }
    guard pendingCloses[options.id] != nil else { return false }
    pendingCloses[options.id]?.kept = true
    return true
  }
}
