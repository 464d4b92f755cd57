import NBridgePlugin

/// The files of the app `nbridge init DIR` makes (a plugin package gets them too).
enum AppTemplates {
  static let index = """
    // The app's entry point: `nbridge run www/index.js`. Top-level await works here.
    const { greeting } = require('./greeting.js');

    const info = await nbridge.app.appInfo();
    console.log(greeting(info.name, info.launchCount));

    """

  static let greeting = """
    // What the app says; index.js prints it and Tests/js/greeting.test.js checks it.
    function greeting(name, launchCount) {
      return 'Hello from ' + name + ' (launch #' + launchCount + ')';
    }

    module.exports = { greeting };

    """

  static let test = """
    // `nbridge test` runs every *.test.js under Tests/js, each file in a fresh runtime with
    // fresh data and shared folders, and prints one line per test.
    const { greeting } = require('../../www/greeting.js');

    test('the greeting names the app and the launch', () => {
      assert.equal(greeting('Notes', 3), 'Hello from Notes (launch #3)');
    });

    test('storage keeps what was set', async () => {
      await nbridge.storage.set({ key: 'runs', value: 2 });
      assert.equal(await nbridge.storage.get({ key: 'runs' }), 2);
    });

    test('a bad call rejects with a code', async () => {
      await assert.rejects(nbridge.storage.get({}), 'invalid_parameter');
    });

    """

  static let gitignore = "*.log\n"

  static func manifest(_ names: AppNames, permissions: [String]) -> String {
    """
    {
      "id": "\(names.id)",
      "name": "\(jsonEscaped(names.name))",
      "version": "0.1.0",
      "build": "1",
      "description": "\(jsonEscaped(names.name)), an nbridge app",
      "permissions": [\(permissions.map { "\"\($0)\"" }.joined(separator: ", "))]
    }

    """
  }

  static func readme(_ names: AppNames) -> String {
    """
    # \(names.name)

    An [nbridge](\(NBridgeVersion.repository)) app: JavaScript with native plugins, on Linux.

    ```sh
    nbridge run www/index.js   # runs the app (its data lives under ~/.local/share/nbridge/apps/\(names.id))
    nbridge test               # runs Tests/js/*.test.js
    nbridge types > www/nbridge.d.ts   # TypeScript declarations of the nbridge object, for your editor
    nbridge bundle www         # packages it as a .deb, an .rpm and a .tar.gz that run without Swift
    ```

    `www/nbridge.json` is the manifest: the app's id, name, version and the services it may use.

    """
  }

  /// `text` with JSON's two must-escape characters escaped (a folder name may hold them).
  static func jsonEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
      switch character {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out.append(character)
      }
    }
    return out
  }
}
