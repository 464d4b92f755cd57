/// `enum` (and `const enum`), which has no erasable form: made a `var` holding an object filled by
/// a function, on the declaration's own lines (each member's code starts on its line; columns on
/// those lines differ). Members are numbered as TypeScript numbers them, numeric ones mapped back
/// to their names, and a member's initializer may name earlier members.
///
///     enum Color { Red, Green = "g" }
///     var Color = (function (Color) { const Red = Color["Red"] = 0; Color[Red] = "Red"; ... return Color; })({});
extension TypeStrip {
  mutating func enumDeclaration(keyword: Int, start: Int) throws(ModuleSyntaxError) {
    let name = text(keyword + 1)
    guard isWord(keyword + 2, "{"), let open = token(keyword + 2), open.match > keyword + 2 else {
      throw error("Expected '{' after 'enum \(name)'", at: keyword + 2)
    }
    let close = open.match
    var code: [UInt16] = Array("var \(name) = (function (\(name)) {".utf16)
    let firstLine = token(start)?.line ?? 1
    var line: Int { firstLine + code.filter { Lexer.isLineTerminator($0) }.count }
    var previous: String?
    var j = keyword + 3
    while j < close {
      guard let member = token(j) else { break }
      if isWord(j, ",") {
        j += 1
        continue
      }
      let key: String
      var local: String?
      switch member.kind {
      case .identifier:
        key = jsonQuoted(text(j))
        local = text(j)
      case .string:
        key = text(j)
      default:
        throw error("Expected an enum member's name", at: j)
      }
      code += Array(String(repeating: "\n", count: max(0, member.line - line)).utf16) + [32]
      let target = "\(name)[\(key)]"
      let binding = local.map { "const \($0) = " } ?? ""
      code += Array("\(binding)\(target) = ".utf16)
      var next = j + 1
      if isWord(next, "=") {
        // The initializer's text as written, up to the member's comma at this level.
        var end = next + 1
        while end < close && !isWord(end, ",") { end = opens(end) ? (token(end)?.match ?? end) + 1 : end + 1 }
        let from = token(next + 1)?.start ?? member.end
        let to = max(from, token(end - 1)?.end ?? from)
        code += from < to ? Array(units[from..<to]) : Array("undefined".utf16)
        next = end
      } else if let previous {
        code += Array("\(previous) + 1".utf16)
      } else {
        code += [48]
      }
      let reference = local ?? target
      code += Array("; if (typeof \(reference) === \"number\") \(name)[\(reference)] = \(key);".utf16)
      previous = reference
      j = next
    }
    code += Array(String(repeating: "\n", count: max(0, (token(close)?.line ?? line) - line)).utf16)
    code += Array(" return \(name); })({});".utf16)
    guard let first = token(start), let last = token(close) else { return }
    edits.append(Edit(range: first.start..<last.end, text: code))
    i = close + 1
  }
}
