import Foundation
import NBridgeTesting
import Testing

/// `nbridge types` type-checks real TypeScript with Deno (installed by `make test` from PyPI).
@Suite(.onTestThreads) struct TypeScriptCheckTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

  /// `$NBRIDGE_DENO` (set by `make test`), else `deno` on PATH.
  static var deno: String { ProcessInfo.processInfo.environment["NBRIDGE_DENO"] ?? "deno" }

  func check(_ source: String) throws -> (status: Int32, stdout: String, stderr: String) {
    let dir = try TemporaryDirectory(prefix: "nbridge-ts")
    let types = try NBridgeTest.command(["types"])
    #expect(types.status == 0)
    try dir.write("nbridge.d.ts", types.stdout)
    let file = try dir.write("main.ts", source)
    return try ChildProcess.run(
      Self.deno, ["check", file], environment: ["NO_COLOR": "1", "DENO_NO_UPDATE_CHECK": "1", "DENO_DIR": dir.file("cache")],
      timeout: 120)
  }

  @Test func aScriptUsingEveryBuiltInTypeChecks() throws {
    let source = try String(contentsOf: Self.fixtures.appendingPathComponent("uses-nbridge.ts"), encoding: .utf8)
    let result = try check(source)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }

  @Test func wrongOptionsFailTheCheck() throws {
    let result = try check(
      """
      /// <reference path="./nbridge.d.ts" />
      nbridge.storage.set({ key: 1, value: 'x' });
      nbridge.pasteboard.addListener('change', (c) => c.nope);
      """)
    #expect(result.status != 0)
    #expect(result.stderr.contains("Type 'number' is not assignable to type 'string'"))
    #expect(result.stderr.contains("Property 'nope' does not exist on type 'PasteboardChange'"))
  }

  @Test func theWebGlobalsAreDeclaredThroughLibDom() throws {
    let types = try NBridgeTest.command(["types"])
    #expect(types.stdout.contains("/// <reference lib=\"dom\" />"))
    let result = try check(
      """
      /// <reference path="./nbridge.d.ts" />
      const url: URL = new URL('/x?q=1', 'https://example.com');
      const q: string | null = url.searchParams.get('q');
      const signal: AbortSignal = AbortSignal.any([new AbortController().signal, AbortSignal.timeout(1000)]);
      signal.addEventListener('abort', (e: Event) => console.log(e.type));
      addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => e.preventDefault());
      addEventListener('error', (e: ErrorEvent) => console.log(e.message, e.lineno));
      const now: number = performance.now();
      const id: string = crypto.randomUUID();
      const digest: Promise<ArrayBuffer> = crypto.subtle.digest('SHA-256', new TextEncoder().encode('x'));
      const agent: string = navigator.userAgent;
      new EventTarget().dispatchEvent(new CustomEvent<number>('n', { detail: 1 }));
      reportError(new Error('x'));
      const channel: MessageChannel = new MessageChannel();
      channel.port2.onmessage = (e: MessageEvent<string>) => console.log(e.data.length, e.ports.length);
      channel.port1.postMessage('hi', [new MessageChannel().port1]);
      console.log(q, now, id, digest, agent);
      """)
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
  }
}
