/// TypeScript made JavaScript by erasing its type syntax: every annotation, interface, type alias,
/// `as`/`satisfies`, type argument, `declare`, `import type`/`export type`, overload, optional `?`
/// and non-null `!` becomes spaces (line terminators stay), so each line and column of what runs
/// is the `.ts` file's own, as Node's `--experimental-strip-types` does. A plain `enum` (not
/// erasable) becomes an object made on the same lines. Syntax that would need code generated in
/// its place is refused: parameter properties, namespaces, `import x = require()`, `export =`.
///
/// It is not a type checker, nor a parser: it follows the tokens with what each bracket holds and
/// skips types with a small grammar, enough for the code people write.
public enum TypeStripper {
  /// `units` (UTF-16) with TypeScript's type syntax erased; throws on syntax it refuses to erase.
  public static func strip(units: [UInt16]) throws(ModuleSyntaxError) -> [UInt16] {
    let tokens = try Lexer.tokenize(units)
    var stripper = TypeStrip(units: units, tokens: tokens)
    try stripper.run()
    return stripper.output()
  }

  /// `source` with TypeScript's type syntax erased (see `strip(units:)`).
  public static func strip(_ source: String) throws(ModuleSyntaxError) -> String {
    String(decoding: try strip(units: Array(source.utf16)), as: UTF16.self)
  }

  /// Whether `path` names a TypeScript file (`.ts`, `.mts`, `.cts`).
  public static func isTypeScript(_ path: String) -> Bool {
    path.hasSuffix(".ts") || path.hasSuffix(".mts") || path.hasSuffix(".cts")
  }
}

/// The walk over a TypeScript file's tokens and the edits it makes.
struct TypeStrip {
  /// What a bracket holds, which decides what a `:` or an identifier in it means.
  enum Kind { case block, classBody, object, params, paren, bracket, specifiers, substitution }

  /// What to check once a bracket closes.
  enum AfterClose: Equatable {
    case nothing
    /// A function's parameters: a return type may follow, and no body means an overload
    /// (erased from `start`) where `overloadable`.
    case functionParams(start: Int, overloadable: Bool)
    /// An arrow function's parameters, whose return type `: T` spans `from..<to` tokens.
    case arrowParams(from: Int, to: Int)
    /// A destructuring pattern that binds: `?`, `!` and `: T` may follow.
    case binding
  }

  /// One open bracket.
  struct Frame {
    var kind: Kind
    /// Index of the closing token.
    var close: Int
    var afterClose: AfterClose = .nothing
    /// In `let`/`const`/`var` declarations (until `;`), and whether a binding comes next.
    var declaring = false
    var expectBinding = false
    /// In a class body: whether the next token starts a member; in parameters, a parameter.
    var atStart = true
  }

  /// A replacement: `range` of `units` becomes spaces (line terminators kept), or `text`.
  struct Edit {
    var range: Range<Int>
    var text: [UInt16]?
  }

  let units: [UInt16]
  let tokens: [Token]
  var edits: [Edit] = []
  var frames: [Frame]
  var i = 0
  /// Set by `function` or a method's name: the next `(` opens its parameters.
  var pendingParams: AfterClose?

  init(units: [UInt16], tokens: [Token]) {
    self.units = units
    self.tokens = tokens
    frames = [Frame(kind: .block, close: tokens.count)]
  }

  mutating func run() throws(ModuleSyntaxError) {
    while i < tokens.count {
      let before = i
      try step()
      if i <= before { i = before + 1 }
    }
  }

  /// The source with every edit applied.
  func output() -> [UInt16] {
    // Erasures may nest (a modifier inside an erased overload): the outer one wins, and a blank
    // reaching past one before it erases the rest.
    let sorted = edits.sorted {
      ($0.range.lowerBound, -$0.range.upperBound) < ($1.range.lowerBound, -$1.range.upperBound)
    }
    var out: [UInt16] = []
    out.reserveCapacity(units.count)
    var position = 0
    for edit in sorted where edit.range.upperBound > position {
      if edit.range.lowerBound < position && edit.text != nil { continue }
      let range = max(position, edit.range.lowerBound)..<min(edit.range.upperBound, units.count)
      out.append(contentsOf: units[position..<range.lowerBound])
      if let text = edit.text {
        out.append(contentsOf: text)
      } else {
        for c in units[range] { out.append(Lexer.isLineTerminator(c) ? c : 32) }
      }
      position = range.upperBound
    }
    out.append(contentsOf: units[min(position, units.count)...])
    return out
  }

  // MARK: Tokens

  func token(_ k: Int) -> Token? { k >= 0 && k < tokens.count ? tokens[k] : nil }

  /// Whether token `k` is the identifier or punctuator `word`.
  func isWord(_ k: Int, _ word: StaticString) -> Bool {
    guard let t = token(k), t.kind == .identifier || t.kind == .punctuator else { return false }
    guard t.end - t.start == word.utf8CodeUnitCount else { return false }
    let bytes = word.utf8Start
    for n in 0..<word.utf8CodeUnitCount where units[t.start + n] != UInt16(bytes[n]) { return false }
    return true
  }

  func isIdentifier(_ k: Int) -> Bool { token(k)?.kind == .identifier }

  func text(_ k: Int) -> String {
    guard let t = token(k) else { return "" }
    return String(decoding: units[t.start..<t.end], as: UTF16.self)
  }

  /// Whether token `k` opens a bracket (`(`, `[`, `{`, or a template's `${`) closed further on.
  func opens(_ k: Int) -> Bool {
    guard let t = token(k), t.match > k else { return false }
    return t.kind == .templateOpen || (t.kind == .punctuator && t.end - t.start == 1)
  }

  /// Whether token `k` can end an expression (so what follows on a new line starts another).
  func endsExpression(_ k: Int) -> Bool {
    guard let t = token(k) else { return false }
    switch t.kind {
    case .identifier: return !TypeStrip.operatorWords.contains(text(k))
    case .number, .string, .template, .regex, .privateName: return true
    case .templateOpen: return false
    case .punctuator: return isWord(k, ")") || isWord(k, "]") || isWord(k, "}") || isWord(k, "++") || isWord(k, "--")
    }
  }

  static let operatorWords: Set<String> = [
    "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield",
    "await", "extends", "as", "satisfies", "keyof", "is",
  ]

  /// Erases tokens `from..<to`.
  mutating func blank(_ from: Int, _ to: Int) {
    guard from < to, let first = token(from), let last = token(to - 1) else { return }
    edits.append(Edit(range: first.start..<last.end))
  }

  /// Erases from token `from` up to (not including) token `to`, the space between them too.
  mutating func blankThrough(_ from: Int, _ to: Int) {
    guard from < to, let first = token(from) else { return }
    let end = token(to)?.start ?? units.count
    edits.append(Edit(range: first.start..<end))
  }

  func error(_ message: String, at k: Int) -> ModuleSyntaxError {
    let t = token(k) ?? tokens.last
    return ModuleSyntaxError(message, line: t?.line ?? 1, column: t?.column ?? 0)
  }

  /// The end of a declaration or class member from `k`: after its `;`, or before the closing
  /// bracket or a token on a new line after one that ends an expression.
  func statementEnd(from k: Int) -> Int {
    var j = k
    while let t = token(j) {
      if opens(j) {
        j = t.match + 1
        continue
      }
      if isWord(j, ";") { return j + 1 }
      if t.kind == .punctuator && t.match >= 0 && t.match < j { return j }
      if j > k && t.newlineBefore && endsExpression(j - 1) { return j }
      j += 1
    }
    return j
  }

  // MARK: The walk

  mutating func step() throws(ModuleSyntaxError) {
    guard let t = token(i) else { return }
    if frames.count > 1, i == frames[frames.count - 1].close {
      let frame = frames.removeLast()
      try closed(frame)
      if t.kind == .templateOpen, t.match > i {
        frames.append(Frame(kind: .substitution, close: t.match))
      }
      return
    }
    switch frames[frames.count - 1].kind {
    case .block:
      if try statement() { return }
    case .classBody:
      let top = frames.count - 1
      if isWord(i, ";") {
        frames[top].atStart = true
        i += 1
        return
      }
      if frames[top].atStart || (t.newlineBefore && endsExpression(i - 1)) {
        frames[top].atStart = false
        if memberHead() { return }
      }
    case .params:
      if try parameter() { return }
    case .specifiers:
      specifier()
      return
    default: break
    }
    try expression()
  }

  /// After a bracket closed at `i`: its check, then `i` moves past it.
  mutating func closed(_ frame: Frame) throws(ModuleSyntaxError) {
    i += 1
    if frames[frames.count - 1].kind == .classBody && frame.kind == .block { frames[frames.count - 1].atStart = true }
    switch frame.afterClose {
    case .nothing: break
    case .binding: i = bindingSuffix(i, declaring: true)
    case .arrowParams(let from, let to): blank(from, to)
    case .functionParams(let start, let overloadable):
      if isWord(i, ":") {
        let end = skipType(i + 1)
        blank(i, end)
        i = end
      }
      if overloadable && !isWord(i, "{") && !isWord(i, "=>") {
        let end = isWord(i, ";") ? i + 1 : i
        blankThrough(start, end)
        if end > i { i = end }
        if frames[frames.count - 1].kind == .classBody { frames[frames.count - 1].atStart = true }
      }
    }
  }

  /// `?`, `!` and `: T` after a binding name or pattern ending before `k`; returns what follows.
  mutating func bindingSuffix(_ k: Int, declaring: Bool) -> Int {
    var j = k
    if isWord(j, "?"), isWord(j + 1, ":") || isWord(j + 1, ",") || isWord(j + 1, ")") || isWord(j + 1, "=") {
      blank(j, j + 1)
      j += 1
    } else if isWord(j, "!"), isWord(j + 1, ":"), token(j)?.newlineBefore == false {
      blank(j, j + 1)
      j += 1
    }
    if isWord(j, ":") {
      let end = skipType(j + 1)
      blank(j, end)
      j = end
    }
    return j
  }

  /// Pushes the frame for the bracket token `i` opens, deciding what it holds.
  mutating func open(_ kind: Kind, afterClose: AfterClose = .nothing) {
    guard let t = token(i) else { return }
    frames.append(Frame(kind: kind, close: t.match, afterClose: afterClose))
    i += 1
  }
}
