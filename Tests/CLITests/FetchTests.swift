import Foundation
import NBridgeTesting
import Testing

/// `fetch` in a headless run against a local HTTP server the test starts and stops.
@Suite(.onTestThreads) struct FetchTests {
  let dir: TemporaryDirectory
  let server: LocalHTTPServer
  var env: [String: String?]

  init() throws {
    dir = try TemporaryDirectory(prefix: "nbridge-fetch")
    server = try LocalHTTPServer()
    env = NBridgeTest.headless
    env["NBRIDGE_DATA_DIR"] = dir.file("data")
    env["NBRIDGE_SHARED_DIR"] = dir.file("shared")
  }

  func run(_ script: String, _ extra: [String] = [], name: String = "app/main.js") throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let path = try dir.write(name, "const base = '\(server.base())';\n" + script)
    return try NBridgeTest.command(["run", path] + extra, environment: env, timeout: 120)
  }

  @Test func getReadsStatusHeadersAndBody() throws {
    let r = try run(
      """
      const res = await fetch(base + '/hello');
      console.log(res.status, res.statusText, res.ok, res.url === base + '/hello', res.redirected, res.type);
      console.log(res.headers.get('Content-Type'), res.headers.get('content-length'));
      console.log(await res.text(), res.bodyUsed);
      const json = await (await fetch(base + '/json')).json();
      console.log(json.answer, json.list.length);
      const bytes = await (await fetch(base + '/hello')).bytes();
      console.log(bytes.constructor.name, bytes.length);
      const blob = await (await fetch(base + '/json')).blob();
      console.log(blob.type, blob.size);
      """)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout == """
        200 OK true true false basic
        text/plain; charset=utf-8 21
        hello from the server true
        42 2
        Uint8Array 21
        application/json 30

        """)
  }

  @Test func aBodyThatCameWithItsHeadIsReadInTheSameTurn() throws {
    // /whole writes its head and its 5-byte body at once: the body is in hand when the head is
    // parsed, so reading it costs no turn of the loop (a 0 ms timer set once the Response is
    // there has not fired when its text arrives; it would have if the body took a turn).
    let r = try run(
      """
      for (let i = 0; i < 3; i++) {
        const res = await fetch(base + '/whole');
        let turned = false;
        setTimeout(() => { turned = true; }, 0);
        console.log(await res.text(), turned);
      }
      """)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "whole false\nwhole false\nwhole false\n")
  }

  @Test func postSendsEachBodyType() throws {
    let r = try run(
      """
      const bodies = {
        string: 'héllo',
        arrayBuffer: new Uint8Array([1, 2, 3]).buffer,
        typedArray: new Uint16Array([0x0201, 0x0403]),
        dataView: new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2),
        blob: new Blob(['blob ', 'text'], { type: 'text/x-note' }),
        file: new File(['file'], 'a.txt', { type: 'text/plain' }),
      };
      if (typeof URLSearchParams === 'function') bodies.params = new URLSearchParams({ a: '1', b: 'x y' });
      for (const [kind, body] of Object.entries(bodies)) {
        const echo = await (await fetch(base + '/echo', { method: 'POST', body })).json();
        const bytes = Array.from(atob(echo.body), (c) => c.charCodeAt(0));
        console.log(kind, echo.method, echo.headers['content-type'] ?? '-', echo.headers['content-length'], bytes.join(','));
      }
      const form = new FormData();
      form.append('name', 'value\\n2');
      form.append('upload', new Blob(['abc'], { type: 'text/plain' }), 'up.txt');
      const echo = await (await fetch(base + '/echo', { method: 'PUT', body: form, headers: { 'X-Extra': 'yes' } })).json();
      const type = echo.headers['content-type'];
      const boundary = type.split('boundary=')[1];
      const text = atob(echo.body);
      console.log(echo.method, type.startsWith('multipart/form-data; boundary='), echo.headers['x-extra']);
      console.log(JSON.stringify(text.split('--' + boundary)));
      """)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains("string POST text/plain;charset=UTF-8 6 104,195,169,108,108,111"))
    #expect(lines.contains("arrayBuffer POST - 3 1,2,3"))
    #expect(lines.contains("typedArray POST - 4 1,2,3,4"))
    #expect(lines.contains("dataView POST - 2 8,7"))
    #expect(lines.contains("blob POST text/x-note 9 98,108,111,98,32,116,101,120,116"))
    #expect(lines.contains("file POST text/plain 4 102,105,108,101"))
    if r.stdout.contains("params ") {
      #expect(lines.contains("params POST application/x-www-form-urlencoded;charset=UTF-8 9 97,61,49,38,98,61,120,43,121"))
    }
    #expect(lines.contains("PUT true yes"))
    #expect(
      lines.last
        == #"["","\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nvalue\r\n2\r\n","\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"up.txt\"\r\nContent-Type: text/plain\r\n\r\nabc\r\n","--\r\n"]"#)
  }

  @Test func redirectsFollowErrorOrStayManual() throws {
    let r = try run(
      """
      const res = await fetch(base + '/redirect/3');
      console.log(res.status, res.redirected, res.url.slice(base.length), await res.text());
      try { await fetch(base + '/redirect/1', { redirect: 'error' }); } catch (e) { console.log(e.name, e.cause.code); }
      const manual = await fetch(base + '/redirect/1', { redirect: 'manual' });
      console.log(manual.type, manual.status);
      const seeOther = await (await fetch(base + '/see-other', { method: 'POST', body: 'gone' })).json();
      console.log(seeOther.method, seeOther.body === '', seeOther.headers['content-type'] ?? '-');
      """)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stdout == """
        200 true /hello hello from the server
        TypeError redirect
        opaqueredirect 0
        GET true -

        """)
    #expect(server.requests.filter { $0.hasPrefix("GET /redirect/") }.count == 5)
  }

  @Test func notFoundIsAResponseNotAnError() throws {
    let r = try run(
      "const res = await fetch(base + '/status/404'); console.log(res.status, res.ok, await res.text());")
    #expect(r.stdout == "404 false status 404\n", "\(r.stderr)")
  }

  /// The abort comes once the server has the request (its /seen/slow answers then), not after a
  /// time that a loaded machine may take just to connect.
  @Test func aSlowReplyIsAbortedWithTheSignalsReason() throws {
    let start = Date()
    let r = try run(
      """
      const controller = new AbortController();
      const reply = fetch(base + '/slow', { signal: controller.signal });
      console.log('seen', await (await fetch(base + '/seen/slow')).text());
      const timeout = AbortSignal.timeout(300);
      timeout.addEventListener('abort', () => controller.abort(timeout.reason));
      try {
        await reply;
        console.log('finished?');
      } catch (e) {
        console.log(e.name, e === timeout.reason);
      }
      """)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout == "seen yes\nTimeoutError true\n")
    // The server answers after 30 s: the run ended long before (a generous bound).
    #expect(Date().timeIntervalSince(start) < 25)
    #expect(server.requests.contains("GET /slow"))
  }

  @Test func aRefusedConnectionIsATypeErrorWithACause() throws {
    let port = try freePort()
    let r = try run(
      """
      try { await fetch('http://127.0.0.1:\(port)/'); } catch (e) {
        console.log(e instanceof TypeError, e.cause.code, e.message.includes('127.0.0.1:\(port)'));
      }
      """)
    #expect(r.stdout == "true connection_refused true\n", "\(r.stderr)")
  }

  @Test func anUntrustedCertificateIsATypeErrorWithACause() throws {
    let tls = try LocalHTTPServer(tls: true)
    let r = try run(
      """
      try { await fetch('\(tls.base(tls: true))/hello'); console.log('trusted?'); } catch (e) {
        console.log(e instanceof TypeError, e.cause.code);
      }
      """)
    #expect(r.stdout == "true bad_certificate\n", "\(r.stderr)")
  }

  @Test func aResponseOfSeveralMiBArrivesWhole() throws {
    let r = try run(
      """
      const buffer = await (await fetch(base + '/big/8')).arrayBuffer();
      const bytes = new Uint8Array(buffer);
      console.log(buffer.byteLength, bytes.every((b) => b === 120));
      """)
    #expect(r.stdout == "\(8 * 1024 * 1024) true\n", "\(r.stderr)")
  }

  @Test func aBodyOfUnknownLengthArrivesWholeWithItsHeaders() throws {
    let r = try run(
      #"""
      const res = await fetch(base + '/chunked');
      const text = await res.text();
      console.log(text.length, text.startsWith('a'.repeat(30000)), text.endsWith('b'.repeat(10000)));
      console.log(res.headers.get('x-text'), res.headers.get('transfer-encoding'));
      """#)
    #expect(r.stdout == "40000 true true\ncafé chunked\n", "\(r.stderr)")
  }

  @Test func aDeniedFetchRejectsAndSendsNothing() throws {
    try dir.write("app/nbridge.json", #"{"id": "com.example.fetch", "permissions": ["storage"]}"#)
    let script = """
      try { await fetch(base + '/hello?denied'); console.log('sent?'); } catch (e) {
        console.log(e.name, e.cause.code, e.cause.permission);
      }
      const own = await fetch('main.js');
      console.log(own.status);
      """
    let denied = try run(script)
    #expect(denied.stdout == "TypeError permission_denied network\n200\n", "\(denied.stderr)")
    let flagged = try run(script, ["--deny", "network"])
    #expect(flagged.stdout == "TypeError permission_denied network\n200\n", "\(flagged.stderr)")
    #expect(!server.requests.contains { $0.contains("denied") })
    let allowed = try run(script.replacingOccurrences(of: "?denied", with: "?allowed"), ["--allow", "network"])
    #expect(allowed.stdout == "sent?\n200\n", "\(allowed.stderr)")
    #expect(server.requests.contains("GET /hello?allowed"))
  }

  @Test func theAppsOwnFilesResolveAgainstTheEntryFolder() throws {
    try dir.write("app/data/info.json", #"{"ok": true}"#)
    try dir.write("secret.txt", "outside")
    let r = try run(
      """
      const res = await fetch('data/info.json');
      console.log(res.status, res.headers.get('content-type'), (await res.json()).ok, res.url.endsWith('/app/data/info.json'));
      console.log((await fetch('./data/missing.json')).status);
      for (const url of ['../secret.txt', 'file://\(dir.file("secret.txt"))', 'file:///etc/passwd']) {
        try { await fetch(url); console.log('read', url); } catch (e) { console.log(e.name, e.cause.code); }
      }
      """)
    #expect(
      r.stdout == """
        200 application/json true true
        404
        TypeError outside_app_folder
        TypeError outside_app_folder
        TypeError outside_app_folder

        """, "\(r.stderr)")
  }

  /// A port nothing listens on: bound by the OS, then closed.
  private func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    try withUnsafeMutablePointer(to: &address) { pointer in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        guard bind(fd, raw, length) == 0, getsockname(fd, raw, &length) == 0 else {
          throw ChildProcessError.notReady("no free port")
        }
      }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
