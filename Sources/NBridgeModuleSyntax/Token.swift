/// One token of JavaScript source, located by UTF-16 offsets (JavaScriptCore counts columns in
/// UTF-16 units) and by its 1-based line and 0-based column.
public struct Token: Sendable, Equatable {
  /// What the token is; brackets carry what they open.
  public enum Kind: Sendable, Equatable {
    case identifier
    case privateName
    case punctuator
    case number
    case string
    /// A template without substitutions, or its last piece (`}...\``).
    case template
    /// A template's first piece up to `${`, or a middle piece `}...${`: both open a substitution.
    case templateOpen
    case regex
  }

  /// What kind of token.
  public var kind: Kind
  /// UTF-16 offsets of the token in the source.
  public var start: Int
  public var end: Int
  /// 1-based line and 0-based column (UTF-16 units) of `start`.
  public var line: Int
  public var column: Int
  /// Whether a line terminator separates this token from the previous one (for ASI).
  public var newlineBefore: Bool
  /// For an opening bracket (`(`, `[`, `{`, `${`), the index of its closing token, and the reverse.
  public var match: Int = -1
  /// For `{`: what the braces hold.
  public var brace: BraceKind = .block
}

/// What a pair of braces holds, decided from the token before `{`.
public enum BraceKind: Sendable, Equatable {
  case block
  case object
  case classBody
  case substitution
}

/// A syntax error found by the tokenizer or the module analysis, at a line and column.
public struct ModuleSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var message: String
  /// 1-based line and 0-based column.
  public var line: Int
  public var column: Int

  /// An error at a position.
  public init(_ message: String, line: Int, column: Int) {
    self.message = message
    self.line = line
    self.column = column
  }

  /// `message (line L, column C)`.
  public var description: String { "\(message) (line \(line), column \(column + 1))" }
}
