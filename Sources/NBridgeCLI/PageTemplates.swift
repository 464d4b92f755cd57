import NBridgePlugin

/// The files of the page app `nbridge init DIR` makes: `www/index.html` calling plugins from
/// `www/page.js`, and `www/index.js`, the headless entry beside it; both import `greeting.js`.
enum PageTemplates {
  static func html(_ names: AppNames) -> String {
    """
    <!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>\(htmlEscaped(names.name))</title>
        <style>
          body { font: 16px system-ui, sans-serif; margin: 2rem; }
          button { font: inherit; padding: 0.4rem 1rem; }
        </style>
        <script type="module" src="page.js"></script>
      </head>
      <body>
        <h1 id="greeting">Starting…</h1>
        <p><button id="count">Count</button> <span id="clicks"></span></p>
      </body>
    </html>

    """
  }

  static let page = """
    // The page's script: `nbridge app www/` opens index.html in a window, where `nbridge` calls
    // the same plugins as a headless run. Edit it while `nbridge app --watch www/` runs.
    import { greeting } from './greeting.js';

    const info = await nbridge.app.appInfo();
    document.getElementById('greeting').textContent = greeting(info.name, info.launchCount);

    const clicks = document.getElementById('clicks');
    const show = (n) => (clicks.textContent = `clicked ${n} times (kept in storage)`);
    show((await nbridge.storage.get({ key: 'clicks' })) ?? 0);
    document.getElementById('count').addEventListener('click', async () => {
      const n = ((await nbridge.storage.get({ key: 'clicks' })) ?? 0) + 1;
      await nbridge.storage.set({ key: 'clicks', value: n });
      show(n);
    });

    """

  static let index = """
    // The headless entry beside the page: `nbridge run www/index.js` (and what the desktop
    // starts for a background fetch). Top-level await works here.
    import { greeting } from './greeting.js';

    const info = await nbridge.app.appInfo();
    console.log(greeting(info.name, info.launchCount));

    """

  static let greeting = """
    // What the app says; the page and index.js show it, Tests/js/greeting.test.js checks it.
    export function greeting(name, launchCount) {
      return 'Hello from ' + name + ' (launch #' + launchCount + ')';
    }

    """

  static let test = """
    // `nbridge test` runs every *.test.js (and *.test.ts) under Tests/js, each file in a fresh
    // runtime with fresh data and shared folders, and prints one line per test.
    import { greeting } from '../../www/greeting.js';

    test('the greeting names the app and the launch', () => {
      assert.equal(greeting('Notes', 3), 'Hello from Notes (launch #3)');
    });

    test('storage keeps what was set', async () => {
      await nbridge.storage.set({ key: 'clicks', value: 2 });
      assert.equal(await nbridge.storage.get({ key: 'clicks' }), 2);
    });

    test('a bad call rejects with a code', async () => {
      await assert.rejects(nbridge.storage.get({}), 'invalid_parameter');
    });

    """

  static func readme(_ names: AppNames) -> String {
    """
    # \(names.name)

    An [nbridge](\(NBridgeVersion.repository)) app: a web page with native plugins, on Linux.

    ```sh
    nbridge app www/           # opens www/index.html in a window
    nbridge app --watch www/   # the same, reloaded when a file under www/ changes
    nbridge run www/index.js   # the headless entry (data under ~/.local/share/nbridge/apps/\(names.id))
    nbridge test               # runs Tests/js/*.test.js
    nbridge types > www/nbridge.d.ts   # TypeScript declarations of the nbridge object, for your editor
    nbridge bundle www         # packages it as a .deb, an .rpm and a .tar.gz that run without Swift
    ```

    `www/nbridge.json` is the manifest: the app's id, name, version and the services it may use.

    """
  }

  /// `text` with HTML's special characters escaped (a folder name may hold them).
  static func htmlEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      default: out.append(character)
      }
    }
    return out
  }
}
