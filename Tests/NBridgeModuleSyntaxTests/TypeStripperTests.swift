import Foundation
import NBridgeModuleSyntax
import Testing

/// TypeScript's type syntax erased in place: what is left, and that lines and columns stay.
@Suite struct TypeStripperTests {
  /// The stripped text with runs of spaces made one and none before `)`, `,`, `;` or after `(`,
  /// for comparing what is left.
  func stripped(_ source: String) throws -> String {
    squeezed(try TypeStripper.strip(source))
  }

  func squeezed(_ text: String) -> String {
    var out = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    for (from, to) in [(" )", ")"), (" ,", ","), (" ;", ";"), ("( ", "("), ("\n ", "\n"), (" \n", "\n"), (" (", "(")] {
      out = out.replacingOccurrences(of: from, with: to)
    }
    return out
  }

  @Test func erasesAnnotationsInPlace() throws {
    let source = "let a: number = 1, b: Array<Map<string, number>> = [];\nconst c!: string;\nfunction f(x: number, y?: string): void {}"
    let out = try TypeStripper.strip(source)
    #expect(out.utf16.count == source.utf16.count)
    #expect(out.split(separator: "\n").count == source.split(separator: "\n").count)
    #expect(try stripped(source) == squeezed("let a = 1, b = [];\nconst c ;\nfunction f(x, y ) {}"))
  }

  @Test func erasesDeclarationsOnlyTypesHave() throws {
    let source = """
      interface Point { x: number; y: number }
      export interface Named<T> extends Point { name: T }
      type Pair<T> = [T, T];
      export type Shape = { kind: 'a' } | { kind: 'b' }
      declare const DEBUG: boolean;
      declare function log(m: string): void;
      declare module 'x' { export const y: number }
      import type { Thing } from './thing.ts';
      export type { Point };
      import { type A, b, type C as D } from './m.ts';
      const x = 1;
      """
    let out = try TypeStripper.strip(source)
    #expect(out.utf16.count == source.utf16.count)
    #expect(try stripped(source) == squeezed("\n\n\n\n\n\n\n\n\nimport { b, } from './m.ts';\nconst x = 1;"))
  }

  @Test func erasesExpressionsTypeSyntax() throws {
    #expect(try stripped("const n = (v as unknown as number) + w!.length + (u satisfies T);") == squeezed("const n = (v ) + w .length + (u );"))
    #expect(try stripped("const m = new Map<string, number>(); f<T>(x); const k = [1] as const;") == squeezed("const m = new Map (); f (x); const k = [1] ;"))
    #expect(try stripped("const g = <T,>(x: T): T => x;") == squeezed("const g = (x ) => x;"))
    #expect(try stripped("const h = async (a: number, { b }: { b: string }): Promise<void> => {};") == squeezed("const h = async (a , { b } ) => {};"))
    // `f(a < b, c > (d))` would be a call with type arguments, as TypeScript reads it.
    #expect(try stripped("if (a < b && c > d) f(a < b, c >= (d));") == squeezed("if (a < b && c > d) f(a < b, c >= (d));"))
    #expect(try stripped("const r = c ? (x) : y => y; try {} catch (e: unknown) {}") == squeezed("const r = c ? (x) : y => y; try {} catch (e ) {}"))
    #expect(try stripped("if (x) !y; z = a !== b;") == squeezed("if (x) !y; z = a !== b;"))
  }

  @Test func erasesClassesTypeSyntax() throws {
    let source = """
      abstract class Base<T> implements A, B<T> {
        private readonly items: T[] = [];
        declare extra: string;
        abstract size(): number;
        static count?: number
        [key: string]: unknown;
        constructor(items: T[]) { super(); this.items = items; }
        get first(): T | undefined { return this.items[0]; }
        protected add<U extends T>(item: U): void { this.items.push(item); }
        handler = (e: Event): void => {};
        over(a: string): void;
        over(a: any) {}
      }
      class Sub extends Base<number> {}
      """
    let out = try TypeStripper.strip(source)
    #expect(out.utf16.count == source.utf16.count)
    let expected = """
      class Base {
      items = [];


      static count
      
      constructor(items) { super(); this.items = items; }
      get first() { return this.items[0]; }
      add(item) { this.items.push(item); }
      handler = (e) => {};

      over(a) {}
      }
      class Sub extends Base {}
      """
    #expect(try stripped(source) == squeezed(expected))
  }

  @Test func turnsEnumsIntoObjectsOnTheSameLines() throws {
    let source = "enum Color {\n  Red,\n  Green = 5,\n  Blue,\n  'sky-blue' = \"s\"\n}\nexport const enum E { A }\nlet after = 1;"
    let out = try TypeStripper.strip(source)
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 8)
    #expect(lines[1].contains("Red") && lines[2].contains("Green") && lines[3].contains("Blue"))
    #expect(lines[6].hasPrefix("export var E = "))
    #expect(lines[7] == "let after = 1;")
  }

  @Test func refusesWhatCannotBeErased() throws {
    #expect(throws: ModuleSyntaxError("TypeScript parameter properties ('private' on a constructor parameter) are not supported when types are only stripped: declare the field in the class body and assign it in the constructor", line: 2, column: 14)) {
      try TypeStripper.strip("class A {\n  constructor(private x: number) {}\n}")
    }
    #expect(throws: ModuleSyntaxError.self) { try TypeStripper.strip("namespace N { export const a = 1 }") }
    #expect(throws: ModuleSyntaxError.self) { try TypeStripper.strip("import fs = require('fs');") }
    #expect(throws: ModuleSyntaxError.self) { try TypeStripper.strip("export = foo;") }
  }

  @Test func leavesJavaScriptAlone() throws {
    let source = """
      const type = 1, as = 2; let declare = type + as;
      const o = { a: 1, b(x) { return x ? 1 : 2; }, c: function (y) {} };
      label: for (const k of [1]) { continue label; }
      switch (declare) { case 1: break; default: }
      const t = `a${o.a}b${`c${1}`}`;
      """
    #expect(try TypeStripper.strip(source) == source)
  }

  /// Arbitrary input never crashes the stripper nor makes it loop: it returns or throws.
  @Test func survivesArbitraryInput() {
    let pieces = [
      "<", ">", ">>", "(", ")", "{", "}", "[", "]", ":", "?", "!", ",", ";", "=", "=>", "as", "type", "interface",
      "enum", "class", "function", "let", "x", "T", "extends", "implements", "declare", "abstract", "private", "import",
      "export", "`a${", "}`", "'s'", "1", "|", "&", "keyof", "typeof", "infer", "is", "new", "\n", " ", ".", "...",
      "this", "const", "satisfies", "namespace", "get", "static", "@", "/", "*",
    ]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<3000 {
      let count = Int.random(in: 1...40, using: &generator)
      let source = (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: " ")
      _ = try? TypeStripper.strip(source)
    }
  }
}
