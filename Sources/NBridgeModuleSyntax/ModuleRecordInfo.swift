/// What a module's static imports and exports say, and its source rewritten into a function the
/// loader calls: the record the JS loader links and evaluates.
public struct ModuleRecordInfo: Sendable, Equatable {
  /// A module this one asks for: `import ... from 'specifier' with { type: 'json' }`.
  public struct Request: Sendable, Equatable {
    /// The specifier as written.
    public var specifier: String
    /// The `type` import attribute, if any.
    public var type: String?
    /// Where the request is written (1-based line, 0-based column).
    public var line: Int
    public var column: Int
  }

  /// One imported binding: `import { name as local }`, `import local from`, `import * as local`.
  public struct Import: Sendable, Equatable {
    /// The local name in this module.
    public var local: String
    /// The exported name asked for; nil for a namespace import (`import * as ns`: a string
    /// name can be `"*"` too).
    public var name: String?
    /// Index into `requests`.
    public var request: Int
    public var line: Int
    public var column: Int
  }

  /// An export of this module: local (`localName` set), re-exported (`request` and `importName`).
  public struct Export: Sendable, Equatable {
    /// The name importers use.
    public var name: String
    /// The local binding behind it, for a local export.
    public var localName: String?
    /// For `export { a as b } from` and `export * as ns from`: the request, and the name asked
    /// for (nil for the namespace).
    public var request: Int?
    public var importName: String?
    public var line: Int
    public var column: Int
  }

  /// Requests in source order, each specifier and type once.
  public var requests: [Request] = []
  /// Imported bindings.
  public var imports: [Import] = []
  /// Named exports (local and re-exported).
  public var exports: [Export] = []
  /// `export * from` requests.
  public var starExports: [Int] = []
  /// Whether the module awaits at its top level (it is evaluated asynchronously).
  public var hasTopLevelAwait = false
  /// The rewritten source in UTF-16: a generator function expression `(function* (P) { ... })`.
  public var script: [UInt16] = []
  /// The rewritten script as a string.
  public var source: String { String(decoding: script, as: UTF16.self) }
  /// The width of the script's head on line 1, up to and including its `yield;`.
  public var headWidth = 0
  /// The script as a plain function that runs the whole body in one call, for a module that is
  /// in no cycle and does not await: `function*` and `yield;` become spaces (every column stays;
  /// a generator's first call costs JavaScriptCore several times a plain function's). Nil when
  /// the module awaits at top level.
  public var plainScript: [UInt16]? {
    ModuleRecordInfo.plainScript(script, headWidth: headWidth, hasTopLevelAwait: hasTopLevelAwait)
  }
  /// The plain-function form of a rewritten `script` with head width `headWidth` (see `plainScript`).
  public static func plainScript(_ script: [UInt16], headWidth: Int, hasTopLevelAwait: Bool) -> [UInt16]? {
    guard !hasTopLevelAwait, headWidth > 16, script.count >= headWidth else { return nil }
    var units = script
    units[9] = 32  // the `*` of `(function*`
    for k in headWidth - 6..<headWidth { units[k] = 32 }  // `yield;`
    return units
  }
  /// Whether the body can run as a script's top-level code, in a block (`programScript`): it
  /// does not await at top level, declares no top-level `var` (it would become a global) and
  /// writes no `this`, `arguments` or `eval` outside an ordinary function (they would see the
  /// script's).
  public var runsAsProgram = false
  /// The head of the program form: `"use strict";{const P=this;` and the getters of the exported
  /// bindings that can change (`P.export={...};`); the others are handed over when the body ends.
  public var programHead = ""
  /// The script as a program, when the module can run as one (see `runsAsProgram`).
  public var programScript: [UInt16]? {
    runsAsProgram ? ModuleRecordInfo.programScript(script, headWidth: headWidth, head: Array(programHead.utf16)) : nil
  }
  /// The program form of a rewritten `script` with head width `headWidth`: `head` (padded with
  /// spaces: every column stays) in place of the function's head, and the closing `)` a space.
  /// Evaluated with the module's context object as `this`, it runs the body in one parse: a
  /// function expression is parsed twice by JavaScriptCore (lazily when the script defining it
  /// is evaluated, fully when first called), and its defining script is a program of its own.
  public static func programScript(_ script: [UInt16], headWidth: Int, head: [UInt16]) -> [UInt16]? {
    guard !head.isEmpty, head.count <= headWidth, script.count > headWidth, script.last == 41,
      !head.contains(10), !script[0..<headWidth].contains(10)
    else { return nil }
    var units = head + Array(repeating: 32, count: headWidth - head.count)
    units.append(contentsOf: script[headWidth..<script.count - 1])
    units.append(32)  // the `)` closing the function expression
    return units
  }
  /// The prefix of every name the rewrite introduces (free in this module).
  public var prefix = ""
  /// Text the rewrite inserted, by generated line: `[line, generated column, width]`, for
  /// stack traces to map columns back to the source as written.
  public var columnShifts: [[Int]] = []
  /// The local name of `export default <expression>` (named "default" by the loader).
  public var defaultLocal: String?

  /// An empty record.
  public init() {}
}
