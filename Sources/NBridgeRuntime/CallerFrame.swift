/// Where `nbridge.log` was called from: the first frame of a JavaScriptCore stack (`fn@url:line:col`
/// lines) after the log function's own that is neither native code nor the prelude. Read straight
/// from the stack's UTF-16, so a log call makes Swift strings only for a file it has not seen.
struct CallerFrame: Equatable {
  /// The script's URL or path as the stack names it.
  var file: String
  var line: Int
  var column: Int
  /// The file's last path component: `index.js`.
  var fileName: String
  /// The calling function's name (UTF-16); empty for top-level code and anonymous functions.
  var function: [UInt16]

  /// The caller in `stack`, whose first line is the log function itself; nil when there is none.
  /// `files` keeps the file names met so far (most logs come from a few files).
  init?(stack: UnsafeBufferPointer<UInt16>, files: inout [[UInt16]: (path: String, name: String)]) {
    let newline: UInt16 = 0x0A
    var start = 0
    // Skip the first frame: the log function.
    while start < stack.count && stack[start] != newline { start += 1 }
    while start < stack.count {
      start += 1
      var end = start
      while end < stack.count && stack[end] != newline { end += 1 }
      defer { start = end }
      guard end > start else { continue }
      var at = end - 1
      while at >= start && stack[at] != 0x40 { at -= 1 }  // '@'
      let locationStart = at >= start ? at + 1 : start
      guard let (lineStart, line, column) = CallerFrame.lineAndColumn(stack, locationStart, end) else { continue }
      let fileEnd = lineStart - 1
      guard fileEnd > locationStart else { continue }
      let fileUnits = Array(stack[locationStart..<fileEnd])
      // The prelude's own frames (nbridge:prelude) are not the caller.
      if fileUnits.starts(with: Array("nbridge:".utf16)) { continue }
      if let known = files[fileUnits] {
        (file, fileName) = known
      } else {
        file = String(decoding: fileUnits, as: UTF16.self)
        fileName = String(file.split(separator: "/").last ?? Substring(file))
        if files.count < 256 { files[fileUnits] = (file, fileName) }
      }
      function = at > start ? Array(stack[start..<at]) : []
      if CallerFrame.topLevel.contains(function) { function = [] }
      self.line = line
      self.column = column
      return
    }
    return nil
  }

  /// `…:line:column` at the end of `stack[from..<to]`: where the line number starts, and both numbers.
  private static func lineAndColumn(_ stack: UnsafeBufferPointer<UInt16>, _ from: Int, _ to: Int) -> (Int, Int, Int)? {
    var i = to
    func number() -> (value: Int, start: Int)? {
      var value = 0
      var scale = 1
      let end = i
      while i > from, stack[i - 1] >= 0x30, stack[i - 1] <= 0x39 {
        i -= 1
        value += Int(stack[i] - 0x30) * scale
        scale *= 10
      }
      return i < end ? (value, i) : nil
    }
    guard let column = number(), i > from, stack[i - 1] == 0x3A else { return nil }
    i -= 1
    guard let line = number(), i > from, stack[i - 1] == 0x3A else { return nil }
    return (line.start, line.value, column.value)
  }

  private static let topLevel: Set<[UInt16]> = ["global code", "module code", "eval code"].map { Array($0.utf16) }
    .reduce(into: []) { $0.insert($1) }
}
