import Testing

@testable import NBridgeAutostart

/// The Desktop Entry escapes of an autostart entry's values and `Exec` arguments.
@Suite struct DesktopEntryTextTests {
  @Test func plainArgumentsStayUnquotedAndPercentIsDoubled() {
    #expect(DesktopEntryText.execArgument("/usr/bin/nbridge") == "/usr/bin/nbridge")
    #expect(DesktopEntryText.execArgument("/a/100%/b") == "/a/100%%/b")
  }

  @Test func reservedCharactersAreQuotedAndEscapedTwice() {
    // In quotes `"`, `` ` ``, `$` and `\` take a backslash; the string escape then doubles every backslash.
    #expect(DesktopEntryText.execArgument("/my apps/x") == #""/my apps/x""#)
    #expect(DesktopEntryText.execArgument(#"a"b"#) == #""a\\"b""#)
    #expect(DesktopEntryText.execArgument(#"a\b"#) == #""a\\\\b""#)
    #expect(DesktopEntryText.execArgument("a$b") == #""a\\$b""#)
  }

  @Test func controlCharactersAndEmptyArgumentsAreRefused() {
    #expect(DesktopEntryText.execArgument("") == nil)
    #expect(DesktopEntryText.execArgument("/a\nb") == nil)
    #expect(DesktopEntryText.execArgument("/a\u{1B}b") == nil)
    #expect(DesktopEntryText.execArgument("/a\u{2028}b") == nil)
    #expect(DesktopEntryText.escaped("x\u{7F}") == nil)
  }

  @Test func valuesAreEscapedOnScalars() {
    #expect(DesktopEntryText.escaped(" Words\r\n\\") == #"\sWords\r\n\\"#)
  }
}
