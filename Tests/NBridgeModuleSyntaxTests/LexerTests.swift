import NBridgeModuleSyntax
import Testing

/// The tokenizer alone: where it cuts, and what it tells apart.
@Suite struct LexerTests {
  func kinds(_ source: String) throws -> [Token.Kind] {
    try Lexer.tokenize(Array(source.utf16)).map(\.kind)
  }

  @Test func tellsRegexFromDivision() throws {
    #expect(try kinds("a = b / c / d") == [.identifier, .punctuator, .identifier, .punctuator, .identifier, .punctuator, .identifier])
    #expect(try kinds("x = /a/g.test(s)").contains(.regex))
    #expect(try kinds("if (x) /re/.exec(y)").contains(.regex))
    #expect(try !kinds("f(x) / 2").contains(.regex))
    #expect(try kinds("return /[/]/").contains(.regex))
    #expect(try kinds("{}\n/foo/.test(a)").contains(.regex))
    #expect(try !kinds("({}) / 2").contains(.regex))
  }

  @Test func followsNestedTemplates() throws {
    let tokens = try Lexer.tokenize(Array("`a${ `b${ {c: 1}.c }` }d` + 1".utf16))
    #expect(tokens.first?.kind == .templateOpen)
    #expect(tokens.contains { $0.kind == .template })
    #expect(tokens.last?.kind == .number)
  }

  @Test func keepsLinesAndColumnsThroughCommentsAndStrings() throws {
    let tokens = try Lexer.tokenize(Array("/* a\n b */ x\n'\\\n' y // z\n  w".utf16))
    let y = tokens[2]
    #expect(y.line == 4 && y.column == 2)
    #expect(tokens[3].line == 5 && tokens[3].column == 2 && tokens[3].newlineBefore)
  }

  @Test func rejectsHTMLCommentsAndUnterminatedText() {
    #expect(throws: ModuleSyntaxError.self) { try Lexer.tokenize(Array("<!-- x".utf16)) }
    #expect(throws: ModuleSyntaxError.self) { try Lexer.tokenize(Array("'abc".utf16)) }
    #expect(throws: ModuleSyntaxError.self) { try Lexer.tokenize(Array("`abc${".utf16)) }
  }
}
