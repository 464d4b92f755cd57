import Foundation

/// `url_parse_ns`: `new URL(...)` over 1,000 fixed, real-looking URLs (made by a seeded generator,
/// the same list in both runtimes), nbridge against Deno.
struct URLBench {
  let processes: Processes

  /// The script: builds the list, warms up, then prints `BENCH url <ns per parse>` for each round.
  static let script = """
    let seed = 12345;
    const next = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
    const pick = (list) => list[next(list.length)];
    const hosts = ['example.com', 'api.github.com', 'www.wikipedia.org', 'cdn.jsdelivr.net', 'sub.domain.co.uk',
      'localhost', '127.0.0.1', '[2001:db8::1]', 'bücher.de', 'xn--mnchen-3ya.de', 'EXAMPLE.org', 'a.b.c.d.example.net'];
    const words = ['users', 'api', 'v1', 'v2', 'items', 'search', 'static', 'img', 'index.html', 'a%20b', 'über', '..', '.'];
    const keys = ['q', 'page', 'sort', 'id', 'lang', 'utm_source', 'x'];
    const urls = [];
    for (let i = 0; i < 1000; i++) {
      const kind = next(10);
      let url;
      if (kind < 6) {
        url = pick(['https', 'http', 'HTTPS', 'ws']) + '://' + (next(8) === 0 ? 'user:pass@' : '') + pick(hosts) +
          (next(5) === 0 ? ':' + (1000 + next(60000)) : '');
        for (let s = next(5); s > 0; s--) url += '/' + pick(words);
        if (next(2)) url += '?' + Array.from({ length: 1 + next(3) }, () => pick(keys) + '=' + pick(words)).join('&');
        if (next(4) === 0) url += '#' + pick(words);
        urls.push([url]);
      } else if (kind < 9) {
        urls.push([pick(['../', './', '/', '']) + pick(words) + '/' + pick(words) + (next(2) ? '?q=' + pick(words) : ''),
          'https://' + pick(hosts) + '/base/dir/page.html']);
      } else {
        urls.push([pick(['file:///home/user/', 'mailto:someone@', 'data:text/plain,', 'blob:https://example.com/']) + pick(words)]);
      }
    }
    const parseAll = () => { for (const [u, b] of urls) new URL(u, b); };
    for (let i = 0; i < 20; i++) parseAll();
    for (let r = 0; r < 7; r++) {
      const start = performance.now();
      for (let i = 0; i < 20; i++) parseAll();
      console.log('BENCH url ' + ((performance.now() - start) * 1e6 / (20 * urls.length)));
    }
    """

  /// Nanoseconds per parse: (nbridge, deno), medians of the rounds.
  func run() -> (nbridge: Double?, deno: Double?) {
    let path = processes.write("url-parse.js", URLBench.script)
    let mine = Spawned([processes.nbridge, "run", path], set: processes.environment, stdout: "\(processes.directory)/url.out")
    _ = mine.wait()
    let nbridge = processes.figures(mine.output(), "url")
    var deno: [Double] = []
    if let binary = processes.deno {
      let theirs = Spawned(
        [binary, "run", "--quiet", path], set: ["DENO_DIR": "\(processes.directory)/deno"],
        stdout: "\(processes.directory)/url-deno.out")
      _ = theirs.wait()
      deno = processes.figures(theirs.output(), "url")
    }
    return (median(nbridge), median(deno))
  }
}
