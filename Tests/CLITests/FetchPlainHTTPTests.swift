import Foundation
import NBridgeTesting
import Testing

/// `fetch` of plain `http:` URLs through the runtime's own HTTP/1.1 client, against a server in
/// the test's process (`ScriptedHTTPServer`). Each test runs on that client and on libsoup
/// (`NBRIDGE_HTTP_CLIENT=libsoup`, the path every request took before): both give the same results.
@Suite(.onTestThreads) struct FetchPlainHTTPTests {
  let server: ScriptedHTTPServer

  init() throws { server = try ScriptedHTTPServer() }

  /// No proxy from the test's environment; libsoup only when `client` says so.
  static func environment(_ client: String) -> [String: String?] {
    var env: [String: String?] = [:]
    for name in ["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] { env[name] = nil }
    env["NBRIDGE_HTTP_CLIENT"] = client
    return env
  }

  func run(_ script: String, _ client: String, environment extra: [String: String?] = [:]) async throws -> NBridgeTest.Outcome {
    var env = Self.environment(client)
    env.merge(extra) { _, given in given }
    return try await NBridgeTest.run(
      "const base = '\(server.base)';\n" + script, .process, environment: env, timeout: 120)
  }

  @Test(arguments: ["plain", "libsoup"])
  func keptAliveConnectionsAreReused(_ client: String) async throws {
    let r = try await run(
      """
      const texts = [];
      for (let i = 0; i < 20; i++) texts.push(await (await fetch(base + '/hello?' + i)).text());
      const posted = await fetch(base + '/hello', { method: 'POST', body: 'x' });
      console.log(new Set(texts).size, texts[0], posted.status, await posted.text());
      """, client)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "1 hello 200 hello\n")
    // libsoup sends a request that is not idempotent (the POST) on a connection of its own.
    #expect(server.connections == (client == "plain" ? 1 : 2))
    #expect(server.seen.count == 21)
  }

  @Test(arguments: ["plain", "libsoup"])
  func chunkedCompressedAndInformationalResponsesArriveAsLibsoupGaveThem(_ client: String) async throws {
    let r = try await run(
      """
      const res = await fetch(base + '/chunked');
      const text = await res.text();
      console.log(res.headers.get('x-kind'), text.length, text.slice(0, 6), text.endsWith('c'.repeat(100000) + '!'));
      const squeezed = await fetch(base + '/gzip');
      console.log(squeezed.headers.get('content-encoding'), JSON.stringify((await squeezed.text()).slice(0, 18)));
      const hinted = await fetch(base + '/early-hints');
      console.log(hinted.status, await hinted.text());
      const head = await fetch(base + '/hello', { method: 'HEAD' });
      console.log(head.status, head.headers.get('content-length'), head.body === null);
      console.log((await (await fetch(base + '/hello')).text()));
      """, client)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout == """
        pieces 100006 helloc true
        gzip "squeezed squeezed "
        200 after hints
        200 5 true
        hello

        """)
    // Plain: one connection for all, the GET after the HEAD included (its bodiless response
    // frees the connection before the HEAD's handler starts the GET). libsoup opens a second.
    if client == "plain" { #expect(server.connectionOfEachRequest == [1, 1, 1, 1, 1]) }
  }

  @Test(arguments: ["plain", "libsoup"])
  func aServerClosingAKeptAliveConnectionIsMetWithANewOne(_ client: String) async throws {
    let r = try await run(
      """
      const text = async (path, init) => (await fetch(base + path, init)).text();
      console.log(await text('/close-after'), await text('/hello'));
      console.log(await text('/close-after', { method: 'POST', body: '1' }), await text('/hello', { method: 'POST', body: '2' }));
      """, client)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "bye hello\nbye hello\n")
    #expect(server.seen == ["GET /close-after", "GET /hello", "POST /close-after", "POST /hello"])
    // Plain: the GET finds its connection closed and goes again on a new one; the first POST's
    // idle connection still looks open, the second's does not. libsoup gives each POST a new one.
    #expect(server.connections == (client == "plain" ? 3 : 4))
  }

  @Test func aGetIsSentOnceMoreWhenItsReusedConnectionDropsItAndAPostIsNot() async throws {
    let r = try await run(
      """
      const attempt = async (init) => {
        await (await fetch(base + '/hello')).text();
        try { await fetch(base + '/drop', init); console.log('answered?'); } catch (e) { console.log(e.name, e.cause.code); }
      };
      await attempt();
      await attempt({ method: 'POST', body: 'once' });
      """, "plain")
    #expect(r.status == 0, "\(r.stderr)")
    // The cause's code is libsoup's for a connection closed before the response: network_error.
    #expect(r.stdout == "TypeError network_error\nTypeError network_error\n")
    // The GET went on its reused connection, then once more on a new one; the POST only once.
    #expect(server.seen == ["GET /hello", "GET /drop", "GET /drop", "GET /hello", "POST /drop"])
  }

  @Test(arguments: ["plain", "libsoup"])
  func aResponseLargerThanTheReadAheadArrivesWholeWhenReadLater(_ client: String) async throws {
    let r = try await run(
      """
      for (const query of ['mib=3', 'mib=3&chunked=1']) {
        const res = await fetch(base + '/big?' + query);
        await new Promise((resolve) => setTimeout(resolve, 50));
        const bytes = await res.bytes();
        let same = true;
        for (let i = 0; i < bytes.length; i++) if (bytes[i] !== i % 251) { same = false; break; }
        console.log(bytes.length, same);
      }
      """, client)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "3145728 true\n3145728 true\n")
  }

  @Test(arguments: ["plain", "libsoup"])
  func anAbortInTheMiddleOfABodyClosesItsConnection(_ client: String) async throws {
    let r = try await run(
      """
      const controller = new AbortController();
      const res = await fetch(base + '/half', { signal: controller.signal });
      const body = res.arrayBuffer();
      setTimeout(() => controller.abort(), 20);
      try { await body; console.log('read?'); } catch (e) { console.log(e.name); }
      console.log(await (await fetch(base + '/hello')).text());
      """, client)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "AbortError\nhello\n")
    #expect(server.wait(for: "closed /half"), "\(server.seen)")
  }

  @Test func aProxyInTheEnvironmentSendsPlainRequestsThroughLibsoupToIt() async throws {
    // The server plays the proxy: libsoup sends it the absolute URL of a host nobody listens on.
    let r = try await run(
      "try { console.log((await fetch('http://127.0.0.1:3/hello')).status); } catch (e) { console.log(e.cause.code); }", "",
      environment: ["http_proxy": server.base, "NBRIDGE_HTTP_CLIENT": nil])
    #expect(r.stdout == "404\n", "\(r.stderr)")
    #expect(server.seen.first?.hasPrefix("GET http://127.0.0.1:3/hello") == true, "\(server.seen) \(r.stdout)")
  }
}
