/// Where `nbridge.log` was called from: the first frame of a JavaScriptCore stack (`fn@url:line:col`
/// lines) after the log function's own that is neither native code nor the prelude.
struct CallerFrame: Equatable {
  /// The script's URL or path as the stack names it.
  var file: String
  var line: Int
  var column: Int
  /// The file's last path component: `index.js`.
  var fileName: String
  /// The calling function's name (UTF-16); empty for top-level code and anonymous functions.
  var function: [UInt16]

  /// Where the caller's line is in `stack`, whose first line is the log function itself; nil
  /// when there is none. Reads the UTF-16 in place: nothing is made.
  static func range(in stack: UnsafeBufferPointer<UInt16>) -> Range<Int>? {
    let newline: UInt16 = 0x0A
    var start = 0
    // Skip the first frame: the log function.
    while start < stack.count && stack[start] != newline { start += 1 }
    while start < stack.count {
      start += 1
      var end = start
      while end < stack.count && stack[end] != newline { end += 1 }
      defer { start = end }
      guard let parts = parts(stack, start, end) else { continue }
      // The prelude's own frames (nbridge:prelude) are not the caller.
      if isPrelude(stack, parts.file) { continue }
      return start..<end
    }
    return nil
  }

  /// The caller in `frame`, one line `range(in:)` found; `files` keeps the file names met so far.
  init?(frame: UnsafeBufferPointer<UInt16>, files: inout [[UInt16]: (path: String, name: String)]) {
    guard let parts = CallerFrame.parts(frame, 0, frame.count) else { return nil }
    let fileUnits = Array(frame[parts.file])
    if let known = files[fileUnits] {
      (file, fileName) = known
    } else {
      file = String(decoding: fileUnits, as: UTF16.self)
      fileName = String(file.split(separator: "/").last ?? Substring(file))
      if files.count < 256 { files[fileUnits] = (file, fileName) }
    }
    function = Array(frame[parts.function])
    if CallerFrame.topLevel.contains(function) { function = [] }
    line = parts.line
    column = parts.column
  }

  /// A frame line's pieces: `function@file:line:column`, the function absent for some frames.
  private static func parts(
    _ stack: UnsafeBufferPointer<UInt16>, _ start: Int, _ end: Int
  ) -> (function: Range<Int>, file: Range<Int>, line: Int, column: Int)? {
    guard end > start else { return nil }
    var at = end - 1
    while at >= start && stack[at] != 0x40 { at -= 1 }  // '@'
    let locationStart = at >= start ? at + 1 : start
    guard let (lineStart, line, column) = lineAndColumn(stack, locationStart, end) else { return nil }
    let fileEnd = lineStart - 1
    guard fileEnd > locationStart else { return nil }
    return (start..<(at > start ? at : start), locationStart..<fileEnd, line, column)
  }

  private static let prelude = Array("nbridge:".utf16)

  private static func isPrelude(_ stack: UnsafeBufferPointer<UInt16>, _ file: Range<Int>) -> Bool {
    guard file.count >= prelude.count else { return false }
    for k in 0..<prelude.count where stack[file.lowerBound + k] != prelude[k] { return false }
    return true
  }

  /// `…:line:column` at the end of `stack[from..<to]`: where the line number starts, and both numbers.
  private static func lineAndColumn(_ stack: UnsafeBufferPointer<UInt16>, _ from: Int, _ to: Int) -> (Int, Int, Int)? {
    guard let column = number(before: to, stack, from), column.start > from, stack[column.start - 1] == 0x3A,
      let line = number(before: column.start - 1, stack, from), line.start > from, stack[line.start - 1] == 0x3A
    else { return nil }
    return (line.start, line.value, column.value)
  }

  /// The decimal number ending at `end` (not before `from`), and where it starts.
  private static func number(
    before end: Int, _ stack: UnsafeBufferPointer<UInt16>, _ from: Int
  ) -> (value: Int, start: Int)? {
    var i = end
    var value = 0
    var scale = 1
    while i > from, stack[i - 1] >= 0x30, stack[i - 1] <= 0x39 {
      i -= 1
      value += Int(stack[i] - 0x30) * scale
      scale *= 10
    }
    return i < end ? (value, i) : nil
  }

  private static let topLevel: Set<[UInt16]> = ["global code", "module code", "eval code"].map { Array($0.utf16) }
    .reduce(into: []) { $0.insert($1) }
}
