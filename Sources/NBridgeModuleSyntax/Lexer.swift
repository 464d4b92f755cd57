/// Splits JavaScript source into tokens, telling a regular expression from a division and
/// following template literals through nested substitutions; brackets are matched.
///
/// It is not a parser: it knows just enough context (the token before, what each open bracket
/// holds) to cut tokens where the language does.
public struct Lexer {
  let text: [UInt16]
  var position = 0
  var line = 1
  var lineStart = 0
  var sawNewline = false
  public private(set) var tokens: [Token] = []
  /// Open brackets: indexes into `tokens`.
  var open: [Int] = []
  /// Whether `class` was seen and its body's `{` is still to come (by bracket depth).
  var pendingClass: [Int] = []

  /// Tokenizes `source`; throws the first lexical error.
  public static func tokenize(_ source: [UInt16]) throws(ModuleSyntaxError) -> [Token] {
    var lexer = Lexer(text: source)
    try lexer.run()
    return lexer.tokens
  }

  init(text: [UInt16]) { self.text = text }

  func error(_ message: String) -> ModuleSyntaxError {
    ModuleSyntaxError(message, line: line, column: position - lineStart)
  }

  func peek(_ offset: Int = 0) -> UInt16 {
    position + offset < text.count ? text[position + offset] : 0
  }

  static func isLineTerminator(_ c: UInt16) -> Bool { c == 10 || c == 13 || c == 0x2028 || c == 0x2029 }
  static func isSpace(_ c: UInt16) -> Bool {
    c == 32 || c == 9 || c == 11 || c == 12 || c == 0xA0 || c == 0xFEFF || c == 0x1680 || (c >= 0x2000 && c <= 0x200A)
      || c == 0x202F || c == 0x205F || c == 0x3000
  }
  static func isIdentifierStart(_ c: UInt16) -> Bool {
    (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c == 36 || c == 95 || c == 92
      || (c >= 0x80 && !isSpace(c) && !isLineTerminator(c))
  }
  static func isIdentifierPart(_ c: UInt16) -> Bool { isIdentifierStart(c) || (c >= 48 && c <= 57) }

  /// Consumes a line terminator at `position` (CR LF counts once).
  mutating func newline() {
    if text[position] == 13 && peek(1) == 10 { position += 1 }
    position += 1
    line += 1
    lineStart = position
    sawNewline = true
  }

  mutating func run() throws(ModuleSyntaxError) {
    if peek() == 35 && peek(1) == 33 {  // #! hashbang
      while position < text.count && !Lexer.isLineTerminator(text[position]) { position += 1 }
    }
    while true {
      try skipTrivia()
      guard position < text.count else { break }
      try next()
    }
    if let last = open.last {
      let t = tokens[last]
      throw ModuleSyntaxError("Unclosed bracket", line: t.line, column: t.column)
    }
  }

  mutating func skipTrivia() throws(ModuleSyntaxError) {
    while position < text.count {
      let c = text[position]
      if Lexer.isLineTerminator(c) {
        newline()
      } else if Lexer.isSpace(c) {
        position += 1
      } else if c == 47 && peek(1) == 47 {
        while position < text.count && !Lexer.isLineTerminator(text[position]) { position += 1 }
      } else if c == 47 && peek(1) == 42 {
        let start = (line, position - lineStart)
        position += 2
        while true {
          guard position < text.count else {
            throw ModuleSyntaxError("Unterminated comment", line: start.0, column: start.1)
          }
          if text[position] == 42 && peek(1) == 47 {
            position += 2
            break
          }
          if Lexer.isLineTerminator(text[position]) { newline() } else { position += 1 }
        }
      } else if c == 60 && peek(1) == 33 && peek(2) == 45 && peek(3) == 45 {
        throw error("HTML-like comments are not allowed in a module")
      } else if c == 45 && peek(1) == 45 && peek(2) == 62 && (sawNewline || tokens.isEmpty) {
        throw error("HTML-like comments are not allowed in a module")
      } else {
        return
      }
    }
  }

  mutating func push(_ kind: Token.Kind, from start: Int, line startLine: Int, column: Int) {
    tokens.append(
      Token(kind: kind, start: start, end: position, line: startLine, column: column, newlineBefore: sawNewline))
    sawNewline = false
  }

  /// Whether `token` spells the ASCII `word` (no String is made).
  func spells(_ token: Token, _ word: StaticString) -> Bool {
    guard token.end - token.start == word.utf8CodeUnitCount else { return false }
    let bytes = word.utf8Start
    for k in 0..<word.utf8CodeUnitCount where text[token.start + k] != UInt16(bytes[k]) { return false }
    return true
  }

  func text(of token: Token) -> String {
    String(decoding: text[token.start..<token.end], as: UTF16.self)
  }

  /// Whether a `/` here starts a regular expression, from the token before it.
  func regexAllowed() -> Bool {
    guard let prev = tokens.last else { return true }
    switch prev.kind {
    case .number, .string, .template, .regex, .privateName: return false
    case .templateOpen: return true
    case .identifier:
      let word = text(of: prev)
      return Lexer.regexAfterWords.contains(word)
    case .punctuator:
      let c = text[prev.start]
      if prev.end - prev.start == 1 {
        if c == 41 {  // ')': a regex only after if/while/for/with (...)
          guard prev.match >= 0, prev.match > 0 else { return false }
          let before = tokens[prev.match - 1]
          return before.kind == .identifier && ["if", "while", "for", "with"].contains(text(of: before))
        }
        if c == 93 { return false }  // ]
        if c == 125 { return prev.brace == .block || prev.brace == .classBody }  // }
      }
      let s = text(of: prev)
      return s != "++" && s != "--"
    }
  }

  static let regexAfterWords: Set<String> = [
    "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield",
    "await", "extends",
  ]

  static let objectAfterWords: Set<String> = [
    "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "yield", "await", "let",
    "const", "var", "import", "export",
  ]

  /// What a `{` about to be pushed holds, from the token before it.
  func braceKind() -> BraceKind {
    if let depth = pendingClass.last, depth == open.count { return .classBody }
    guard let prev = tokens.last else { return .block }
    switch prev.kind {
    case .identifier:
      let word = text(of: prev)
      return Lexer.objectAfterWords.contains(word) ? .object : .block
    case .templateOpen: return .object
    case .punctuator:
      let s = text(of: prev)
      switch s {
      case ")", ";", "}", "=>": return .block
      case "{": return tokens[tokens.count - 1].brace == .object ? .object : .block
      case ":":
        if let top = open.last, tokens[top].brace == .block, text[tokens[top].start] == 123 { return .block }
        return open.isEmpty ? .block : .object
      default: return .object
      }
    default: return .object
    }
  }

  mutating func next() throws(ModuleSyntaxError) {
    let start = position
    let startLine = line
    let column = position - lineStart
    let c = text[position]
    if Lexer.isIdentifierStart(c) || (c == 35 && position + 1 < text.count && Lexer.isIdentifierStart(peek(1))) {
      let isPrivate = c == 35
      if isPrivate { position += 1 }
      while position < text.count && Lexer.isIdentifierPart(text[position]) {
        if text[position] == 92 {  // \uXXXX or \u{...}
          position += 2
          if peek() == 123 {
            while position < text.count && text[position] != 125 { position += 1 }
            position += 1
          } else {
            position += 4
          }
        } else {
          position += 1
        }
      }
      push(isPrivate ? .privateName : .identifier, from: start, line: startLine, column: column)
      if !isPrivate && spells(tokens[tokens.count - 1], "class") {
        let prev = tokens.count > 1 ? tokens[tokens.count - 2] : nil
        if prev.map({ !spells($0, ".") && !spells($0, "?.") }) ?? true { pendingClass.append(open.count) }
      }
      return
    }
    if (c >= 48 && c <= 57) || (c == 46 && peek(1) >= 48 && peek(1) <= 57) {
      lexNumber()
      push(.number, from: start, line: startLine, column: column)
      return
    }
    if c == 34 || c == 39 {
      try lexString(quote: c)
      push(.string, from: start, line: startLine, column: column)
      return
    }
    if c == 96 {
      position += 1
      let opens = try lexTemplatePiece()
      push(opens ? .templateOpen : .template, from: start, line: startLine, column: column)
      if opens { open.append(tokens.count - 1) }
      return
    }
    if c == 47 && regexAllowed() {
      try lexRegex()
      push(.regex, from: start, line: startLine, column: column)
      return
    }
    if c == 125, let top = open.last, tokens[top].kind == .templateOpen {
      position += 1
      let opens = try lexTemplatePiece()
      push(opens ? .templateOpen : .template, from: start, line: startLine, column: column)
      open.removeLast()
      tokens[top].match = tokens.count - 1
      tokens[tokens.count - 1].match = top
      if opens { open.append(tokens.count - 1) }
      return
    }
    position += punctuatorLength()
    let brace = c == 123 ? braceKind() : .block
    push(.punctuator, from: start, line: startLine, column: column)
    switch c {
    case 40, 91, 123:
      tokens[tokens.count - 1].brace = brace
      if c == 123, brace == .classBody { pendingClass.removeLast() }
      open.append(tokens.count - 1)
    case 41, 93, 125:
      guard let top = open.last, text[tokens[top].start] == (c == 41 ? 40 : c - 2), tokens[top].kind == .punctuator
      else {
        throw ModuleSyntaxError("Unexpected token '\(Character(Unicode.Scalar(c)!))'", line: startLine, column: column)
      }
      open.removeLast()
      tokens[top].match = tokens.count - 1
      tokens[tokens.count - 1].match = top
      tokens[tokens.count - 1].brace = tokens[top].brace
      while let depth = pendingClass.last, depth > open.count { pendingClass.removeLast() }
    case 59:
      // `class` used as a word that never got a body (it cannot, but keep the stack honest).
      while let depth = pendingClass.last, depth >= open.count { pendingClass.removeLast() }
    default: break
    }
  }

  static let punctuators: [String] = [
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=", "<=", ">=", "&&",
    "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "**",
  ].sorted { $0.count > $1.count }
  static let punctuatorUnits: [[UInt16]] = punctuators.map { Array($0.utf16) }

  func punctuatorLength() -> Int {
    for p in Lexer.punctuatorUnits where position + p.count <= text.count {
      var same = true
      for (i, u) in p.enumerated() where text[position + i] != u {
        same = false
        break
      }
      if same {
        // `?.` followed by a digit is `?` then a number (`a?.5:1`).
        if p == [63, 46], peek(2) >= 48 && peek(2) <= 57 { return 1 }
        return p.count
      }
    }
    return 1
  }

  mutating func lexNumber() {
    var sawDot = false
    var sawExponent = false
    let hex = text[position] == 48 && (peek(1) | 0x20) == 120
    while position < text.count {
      let c = text[position]
      if c == 46 {
        if sawDot || sawExponent || hex { break }
        sawDot = true
      } else if (c == 43 || c == 45) && !hex && position > 0 && (text[position - 1] | 0x20) == 101 {
        // exponent sign
      } else if !Lexer.isIdentifierPart(c) {
        break
      } else if !hex && (c | 0x20) == 101 {
        sawExponent = true
      }
      position += 1
    }
  }

  mutating func lexString(quote: UInt16) throws(ModuleSyntaxError) {
    position += 1
    while true {
      guard position < text.count else { throw error("Unterminated string") }
      let c = text[position]
      if c == quote {
        position += 1
        return
      }
      if c == 92 {
        position += 1
        if position < text.count && Lexer.isLineTerminator(text[position]) { newline() } else { position += 1 }
        continue
      }
      if c == 10 || c == 13 { throw error("Unterminated string") }
      if Lexer.isLineTerminator(c) { newline() } else { position += 1 }
    }
  }

  /// After a backtick or a substitution's `}`: reads to the closing backtick (false) or `${` (true).
  mutating func lexTemplatePiece() throws(ModuleSyntaxError) -> Bool {
    while true {
      guard position < text.count else { throw error("Unterminated template literal") }
      let c = text[position]
      if c == 96 {
        position += 1
        return false
      }
      if c == 36 && peek(1) == 123 {
        position += 2
        return true
      }
      if c == 92 {
        position += 1
        if position < text.count && Lexer.isLineTerminator(text[position]) { newline() } else { position += 1 }
        continue
      }
      if Lexer.isLineTerminator(c) { newline() } else { position += 1 }
    }
  }

  mutating func lexRegex() throws(ModuleSyntaxError) {
    position += 1
    var inClass = false
    while true {
      guard position < text.count, !Lexer.isLineTerminator(text[position]) else {
        throw error("Unterminated regular expression")
      }
      let c = text[position]
      position += 1
      if c == 92 {
        guard position < text.count, !Lexer.isLineTerminator(text[position]) else {
          throw error("Unterminated regular expression")
        }
        position += 1
      } else if c == 91 {
        inClass = true
      } else if c == 93 {
        inClass = false
      } else if c == 47 && !inClass {
        break
      }
    }
    while position < text.count && Lexer.isIdentifierPart(text[position]) { position += 1 }
  }
}
