/// Where `nbridge.log` was called from: the first frame of a JavaScriptCore stack (`fn@url:line:col`
/// lines) after the log function's own that is neither native code nor the prelude.
struct CallerFrame: Equatable {
  /// The script's URL or path as the stack names it.
  var file: String
  var line: Int
  var column: Int
  /// The calling function's name; empty for top-level code and anonymous functions.
  var function: String

  /// The caller in `stack`, whose first line is the log function itself; nil when there is none.
  init?(stack: Substring) {
    var frames = stack.split(separator: "\n", omittingEmptySubsequences: true).dropFirst()
    while let frame = frames.popFirst() {
      let at = frame.lastIndex(of: "@")
      let location = at.map { frame[frame.index(after: $0)...] } ?? frame
      guard let lastColon = location.lastIndex(of: ":"),
        let middleColon = location[..<lastColon].lastIndex(of: ":"),
        let line = Int(location[location.index(after: middleColon)..<lastColon]),
        let column = Int(location[location.index(after: lastColon)...])
      else { continue }
      let file = location[..<middleColon]
      if file.isEmpty || file.hasPrefix("nbridge:") { continue }
      var function = at.map { String(frame[..<$0]) } ?? ""
      if function == "global code" || function == "module code" || function == "eval code" { function = "" }
      self.file = String(file)
      self.line = line
      self.column = column
      self.function = function
      return
    }
    return nil
  }

  /// The file's last path component: `index.js`.
  var fileName: Substring { file.split(separator: "/").last ?? Substring(file) }
}
