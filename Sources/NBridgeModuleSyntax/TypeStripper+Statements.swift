/// Statements only TypeScript has (`interface`, `type`, `declare`, `import type`, `export type`),
/// erased whole; `enum` made an object; namespaces and CommonJS forms refused.
extension TypeStrip {
  /// Whether token `k` starts a statement (as far as tokens tell).
  func atStatementStart(_ k: Int) -> Bool {
    guard k > 0, let t = token(k) else { return true }
    if t.newlineBefore { return true }
    return isWord(k - 1, ";") || isWord(k - 1, "}") || isWord(k - 1, "{") || isWord(k - 1, "export")
      || isWord(k - 1, "default") && isWord(k - 2, "export")
  }

  /// A statement-level TypeScript form at `i`; returns whether it handled it.
  mutating func statement() throws(ModuleSyntaxError) -> Bool {
    guard isIdentifier(i), !isWord(i - 1, "."), !isWord(i - 1, "?."), atStatementStart(i) else { return false }
    let start = declarationStart(i)
    switch text(i) {
    case "interface" where isIdentifier(i + 1):
      erase(from: start, to: afterBody(i + 2))
    case "type" where isIdentifier(i + 1) && (isWord(i + 2, "=") || isWord(i + 2, "<")):
      var j = i + 2
      if isWord(j, "<") { j = skipAngles(j) ?? j + 1 }
      guard isWord(j, "=") else { return false }
      var end = skipType(j + 1)
      if isWord(end, ";") { end += 1 }
      erase(from: start, to: end)
    case "declare" where isIdentifier(i + 1) && token(i + 1)?.newlineBefore == false:
      let word = text(i + 1)
      let end: Int
      if ["class", "enum", "namespace", "module", "global", "interface", "abstract"].contains(word) {
        end = afterBody(i + 2)
      } else if word == "const" && isWord(i + 2, "enum") {
        end = afterBody(i + 3)
      } else {
        end = statementEnd(from: i + 1)
      }
      erase(from: start, to: end)
    case "abstract" where isWord(i + 1, "class") && token(i + 1)?.newlineBefore == false:
      blank(i, i + 1)
      i += 1
    case "enum" where isIdentifier(i + 1):
      try enumDeclaration(keyword: i, start: i)
    case "const" where isWord(i + 1, "enum") && isIdentifier(i + 2):
      try enumDeclaration(keyword: i + 1, start: i)
    case "namespace", "module":
      guard isIdentifier(i + 1) || token(i + 1)?.kind == .string, token(i + 1)?.newlineBefore == false else {
        return false
      }
      throw error(
        "TypeScript '\(text(i))' declarations are not supported when types are only stripped: use an ES module",
        at: i)
    case "import": return try importStatement()
    case "export": return try exportStatement()
    default: return false
    }
    return true
  }

  /// Erases tokens `from..<to` and moves past them.
  mutating func erase(from: Int, to: Int) {
    blankThrough(from, to)
    i = max(to, i + 1)
  }

  /// After the `{...}` body that the first `{` at this level from `k` opens (type parameters and
  /// `extends` types before it skipped); or after a `;` when one comes first (a body-less declaration).
  func afterBody(_ k: Int) -> Int {
    var j = k
    while let t = token(j) {
      if isWord(j, "{"), t.match > j { return t.match + 1 }
      if isWord(j, ";") { return j + 1 }
      if isWord(j, "<"), let end = skipAngles(j) {
        j = end
        continue
      }
      if opens(j) {
        j = t.match + 1
        continue
      }
      if t.kind == .punctuator && t.match >= 0 && t.match < j { return j }
      j += 1
    }
    return j
  }

  mutating func importStatement() throws(ModuleSyntaxError) -> Bool {
    if isWord(i + 1, "(") || isWord(i + 1, ".") { return false }
    if isWord(i + 1, "type"), isIdentifier(i + 2) || isWord(i + 2, "{") || isWord(i + 2, "*"),
      !isWord(i + 2, "from") || isWord(i + 3, "from")
    {
      if isWord(i + 3, "=") { throw error("TypeScript 'import ... = require()' is not supported: use 'import'", at: i) }
      erase(from: i, to: statementEnd(from: i + 1))
      return true
    }
    if isIdentifier(i + 1), isWord(i + 2, "=") {
      throw error(
        "TypeScript 'import \(text(i + 1)) = ...' is not supported when types are only stripped: use 'import'", at: i)
    }
    var j = i + 1
    if isIdentifier(j), isWord(j + 1, ",") { j += 2 }
    if isWord(j, "{"), let t = token(j), t.match > j {
      i = j
      open(.specifiers)
      return true
    }
    i += 1
    return true
  }

  mutating func exportStatement() throws(ModuleSyntaxError) -> Bool {
    if isWord(i + 1, "type"), isWord(i + 2, "{") || isWord(i + 2, "*") {
      erase(from: i, to: statementEnd(from: i + 2))
      return true
    }
    if isWord(i + 1, "=") {
      throw error("TypeScript 'export =' is not supported: use 'export default'", at: i)
    }
    if isWord(i + 1, "import") {
      throw error("TypeScript 'export import ... =' is not supported when types are only stripped", at: i)
    }
    if isWord(i + 1, "as"), isWord(i + 2, "namespace") {
      erase(from: i, to: statementEnd(from: i + 1))
      return true
    }
    if isWord(i + 1, "{"), let t = token(i + 1), t.match > i + 1 {
      i += 1
      open(.specifiers)
      return true
    }
    i += 1
    return true
  }
}
