import NBridgePlugin

/// The files of `nbridge init --template vite`: the page app's files, served by Vite's dev server
/// while developing (`nbridge app --dev www/` starts it from the manifest's `dev`) and built into
/// `dist/` for `nbridge bundle dist`.
enum ViteTemplates {
  static func package(_ names: AppNames) -> String {
    """
    {
      "name": "\(names.id.split(separator: ".").last.map(String.init) ?? "app")",
      "private": true,
      "version": "0.1.0",
      "type": "module",
      "scripts": {
        "dev": "vite",
        "build": "vite build"
      },
      "devDependencies": {
        "vite": "^5.4.0"
      }
    }

    """
  }

  static let config = """
    // Vite serves www/ on the port nbridge.json's dev.url names; `vite build` writes dist/, with
    // the manifest and the headless entry copied beside the page (nbridge bundle dist).
    import { copyFileSync } from 'node:fs';
    import { defineConfig } from 'vite';

    export default defineConfig({
      root: 'www',
      server: { host: '127.0.0.1', port: 5173, strictPort: true },
      build: { outDir: '../dist', emptyOutDir: true },
      plugins: [
        {
          name: 'nbridge-files',
          closeBundle() {
            for (const file of ['nbridge.json', 'index.js', 'greeting.js']) copyFileSync(`www/${file}`, `dist/${file}`);
          },
        },
      ],
    });

    """

  static func manifest(_ names: AppNames) -> String {
    """
    {
      "id": "\(names.id)",
      "name": "\(AppTemplates.jsonEscaped(names.name))",
      "version": "0.1.0",
      "build": "1",
      "description": "\(AppTemplates.jsonEscaped(names.name)), an nbridge app",
      "permissions": ["app", "storage"],
      "dev": { "url": "http://127.0.0.1:5173", "command": "npm run dev" }
    }

    """
  }

  static func readme(_ names: AppNames) -> String {
    """
    # \(names.name)

    An [nbridge](\(NBridgeVersion.repository)) app whose page Vite serves while you develop.

    ```sh
    npm install                # Vite, once
    nbridge app --dev www/     # starts `npm run dev` (nbridge.json's dev.command), opens dev.url
    nbridge run www/index.js   # the headless entry
    nbridge test               # runs Tests/js/*.test.js
    npm run build && nbridge bundle dist   # the page built into dist/, packaged
    ```

    `www/nbridge.json` is the manifest; its `dev` names the dev server (a loopback address only),
    and only `nbridge app --dev` uses it: a plain `nbridge app` and `nbridge bundle` load files.

    """
  }

  static let gitignore = "*.log\nnode_modules/\ndist/\n"
}
