// swift-tools-version:6.2
import PackageDescription

/// Swift 6 language mode (the tools-version default) turns on complete concurrency
/// checking; warnings are errors so none can creep in. `treatAllWarnings` is a safe
/// setting, unlike `unsafeFlags`: a package that depends on nbridge by version may use
/// these targets, and SwiftPM ignores the setting there (a dependency's warnings are its own).
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "nbridge",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "nbridge", targets: ["nbridge"]),
    .library(name: "NBridgePlugin", targets: ["NBridgePlugin"]),
    .library(name: "NBridgeRuntime", targets: ["NBridgeRuntime"]),
    .library(name: "NBridgeAppSetup", targets: ["NBridgeAppSetup"]),
    .library(name: "NBridgeTestRunner", targets: ["NBridgeTestRunner"]),
    .library(name: "NBridgeTesting", targets: ["NBridgeTesting"]),
    .library(name: "NBridgeBuiltins", targets: ["NBridgeBuiltins"]),
    .library(name: "NBridgeCLI", targets: ["NBridgeCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // `make docs`: the DocC catalog of the plugin API (swift package generate-documentation).
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // The JS (and other files) of a target, embedded in its code at build time as `EmbeddedFiles`:
    // a target lists the plugin and `exclude`s the folders that hold them (BuildTools/EmbedFiles).
    .plugin(
      name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"], path: "BuildTools/EmbedFiles"),
    .executableTarget(name: "EmbedFilesTool", path: "BuildTools/EmbedFilesTool", swiftSettings: strict),

    // C modules: one per system library, nothing but a header.
    .systemLibrary(
      name: "CJavaScriptCore", path: "Sources/CJavaScriptCore",
      pkgConfig: "javascriptcoregtk-4.1", providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]),
    // The C loaders below open their library on first use through this one helper (dlopen, then
    // a table of symbols, with one error naming the library or symbol that is missing).
    .target(name: "CLibraryLoader"),
    // SQLite's header (libsqlite3-dev); the library is opened on first use.
    .target(name: "CSQLite", dependencies: ["CLibraryLoader"]),
    // AES-256-GCM for secure storage: OpenSSL's headers (libssl-dev); libcrypto.so.3 is opened on first use.
    .target(name: "CCrypto", dependencies: ["CLibraryLoader"], path: "Plugins/Storage/CCrypto"),
    // Xlib's headers (libx11-dev, libxfixes-dev); the libraries are opened on first use. The
    // pasteboard's X11 clipboard and the shortcut plugin's key grabs use it.
    .target(name: "CX11", dependencies: ["CLibraryLoader"], path: "Plugins/Pasteboard/CX11"),
    // gdk-pixbuf for tray icons: nbridge's declarations, the library opened on the first icon.
    .target(name: "CPixbuf", dependencies: ["CLibraryLoader"], path: "Plugins/Tray/CPixbuf"),
    // WebKitGTK for `nbridge app`: nbridge's own declarations, the library opened on first use.
    .target(name: "CWebKitGTK", dependencies: ["CLibraryLoader"]),
    // libsoup 3 for a headless `fetch`: nbridge's declarations, the library opened on the first request.
    .target(name: "CSoup", dependencies: ["CLibraryLoader"]),
    // argc and argv for the Swift runtime without its start-up read of /proc/self/maps (the
    // `nbridge` executable only: StartArguments.c says why).
    .target(name: "CStartArguments"),
    // GIO and GObject (GDBus, GVariant): the D-Bus client's, also used by the app and storage plugins.
    .systemLibrary(
      name: "CGio", path: "Plugins/DBus/CGio",
      pkgConfig: "gobject-2.0", providers: [.apt(["libglib2.0-dev"])]),

    // The file system calls of the runtime and the built-in plugins, in one place (Glibc only).
    .target(name: "NBridgeSystem", swiftSettings: strict),
    // The one SQLite wrapper: the storage plugin's engine and `localStorage` use it.
    .target(name: "NBridgeSQLite", dependencies: ["CSQLite"], swiftSettings: strict),
    // The plugin API: what plugin authors import. No JavaScriptCore here.
    .target(name: "NBridgePlugin", dependencies: ["NBridgeSystem"], swiftSettings: strict),
    // ES modules without a JS context: the tokenizer and the rewrite into a function the loader drives.
    .target(name: "NBridgeModuleSyntax", swiftSettings: strict),
    // An app's setup before any run: `nbridge.json` read and checked (window, bundle, remote
    // origins, URL schemes, dev server), and the app's data and shared folders.
    .target(name: "NBridgeAppSetup", dependencies: ["NBridgePlugin", "NBridgeSystem"], swiftSettings: strict),
    // The runtime: the only Swift code that touches raw JavaScriptCore pointers.
    .target(
      name: "NBridgeRuntime",
      dependencies: ["NBridgePlugin", "NBridgeSystem", "NBridgeModuleSyntax", "CJavaScriptCore"],
      exclude: ["JS"],
      swiftSettings: strict, plugins: ["EmbedFiles"]),
    // ES modules, `require()` and the module cache (an extension of the runtime): the loader's JS,
    // its native half over the rewrite of NBridgeModuleSyntax, which files it may read, and the
    // check that a watched app's changed file would load (`SourceCheck`).
    .target(
      name: "NBridgeModules",
      dependencies: ["NBridgeRuntime", "NBridgeModuleSyntax", "NBridgePlugin", "NBridgeSystem"],
      exclude: ["JS"], swiftSettings: strict, plugins: ["EmbedFiles"]),
    // The app's lifecycle (an extension of the runtime): moves delivered in order, suspension
    // through the core's delivery gate, WKBridgeKit's pause and resume listeners, Ctrl-Z's stop.
    .target(
      name: "NBridgeLifecycle", dependencies: ["NBridgeRuntime", "NBridgePlugin", "NBridgeSystem"],
      exclude: ["JS"], swiftSettings: strict, plugins: ["EmbedFiles"]),
    // `console` and the value formatting (an extension of the runtime): console.js, inspect.js
    // (inspect, format, formatStack), in a headless run and in a window's page; how an uncaught
    // error prints (ErrorReport).
    .target(
      name: "NBridgeConsole", dependencies: ["NBridgeRuntime", "NBridgePlugin", "NBridgeSystem"],
      exclude: ["JS"], swiftSettings: strict, plugins: ["EmbedFiles"]),
    // `--timeout` (an extension of the runtime): a loop timer and JavaScriptCore's script time check.
    .target(name: "NBridgeWatchdog", dependencies: ["NBridgeRuntime", "NBridgePlugin"], swiftSettings: strict),
    // `nbridge.log` and `--log-to` (an extension of the runtime): the sender, its queue, the
    // records and the wire format `nbridge logs` reads.
    .target(
      name: "NBridgeLog", dependencies: ["NBridgeRuntime", "NBridgePlugin", "NBridgeSystem"],
      exclude: ["JS"], swiftSettings: strict, plugins: ["EmbedFiles"]),
    // The web APIs of a headless run (an extension of the runtime): URL, events, encoding,
    // crypto, performance, navigator, Blob, MessageChannel, localStorage, fetch and their native
    // floor (IDNA, digests, legacy decoders, localStorage's file, libsoup).
    .target(
      name: "NBridgeWeb",
      dependencies: ["NBridgeRuntime", "NBridgePlugin", "NBridgeSystem", "NBridgeSQLite", "CSoup", "CGio"],
      exclude: ["JS"], swiftSettings: strict, plugins: ["EmbedFiles"]),
    // Code written for the seed systems' pages, run headless (an extension of the runtime): a run
    // looks like a page (`window`, `self`, printed dialogs) and WKBridgeKit's `webkit.messageHandlers`.
    .target(
      name: "NBridgeCompat", dependencies: ["NBridgeRuntime", "NBridgePlugin"], exclude: ["JS"],
      swiftSettings: strict, plugins: ["EmbedFiles"]),
    // The app's control socket (an extension of the runtime): its server on the run's loop, the
    // claim of the socket, and the client `nbridge open`/`ps`/`simulate` use.
    .target(
      name: "NBridgeControl", dependencies: ["NBridgeRuntime", "NBridgePlugin", "NBridgeSystem"],
      swiftSettings: strict),
    // `nbridge test`: the test files found, each run with fresh folders under the test framework
    // (JS/test-prelude.js); its options are `nbridge test --page`'s too.
    .target(
      name: "NBridgeTestRunner",
      dependencies: ["NBridgeRuntime", "NBridgeAppSetup", "NBridgePlugin", "NBridgeSystem"],
      exclude: ["JS"], swiftSettings: strict, plugins: ["EmbedFiles"]),
    // `nbridge app`: the page in a WebKitGTK window, answered by the runtime, and the page's glue
    // (its messages to the runtime's calls, its prelude, NBridgeKit's page protocol).
    .target(
      name: "NBridgeWindow",
      dependencies: [
        "NBridgeRuntime", "NBridgeConsole", "NBridgeLifecycle", "NBridgeAppSetup", "NBridgeTestRunner", "NBridgeModules",
        "NBridgePlugin", "NBridgeSystem", "NBridgeModuleSyntax", "CWebKitGTK",
      ],
      // The page's side of the bridge: `native` over the window's messages, its timers, NBridgeKit's `nBridge`.
      exclude: ["JS"],
      swiftSettings: strict, plugins: ["EmbedFiles"]),
    // What tests and plugin authors use to run JS against a runtime.
    .target(
      name: "NBridgeTesting",
      dependencies: [
        "NBridgeRuntime", "NBridgeConsole", "NBridgeLifecycle", "NBridgeLog", "NBridgeWeb", "NBridgeModules",
        "NBridgeCompat", "NBridgePlugin", "NBridgeSystem", "NBridgeWatchdog", "NBridgeEcho",
      ],
      // The helper scripts and bus configuration of the GeoClue and portal harnesses (GeoClueSystem
      // and DesktopPortal write them out), embedded by EmbedFiles.
      exclude: ["GeoClue", "Portal"],
      swiftSettings: strict, plugins: ["EmbedFiles"]),
    // The echo test plugin, without Foundation (NBridgeTesting re-exports it).
    .target(name: "NBridgeEcho", dependencies: ["NBridgePlugin"], swiftSettings: strict),

    // The D-Bus client the built-in plugins share (GDBus on the loop's GLib main context).
    .target(
      name: "NBridgeDBus", dependencies: ["NBridgePlugin", "CGio"], path: "Plugins/DBus/Sources", swiftSettings: strict),

    // Built-in plugins, each written only against the public plugin API.
    .target(
      name: "NBridgeApp", dependencies: ["NBridgePlugin", "NBridgeSystem", "CGio"], path: "Plugins/App/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeStorage", dependencies: ["NBridgePlugin", "NBridgeSQLite", "CCrypto", "CGio"], path: "Plugins/Storage/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgePasteboard", dependencies: ["NBridgePlugin", "NBridgeSystem", "CX11"],
      path: "Plugins/Pasteboard/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeNotification", dependencies: ["NBridgePlugin", "NBridgeSystem", "NBridgeDBus", "CGio"],
      path: "Plugins/Notification/Sources", swiftSettings: strict),
    .target(
      name: "NBridgeBackground", dependencies: ["NBridgePlugin", "NBridgeSystem"], path: "Plugins/Background/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeLocation", dependencies: ["NBridgePlugin", "NBridgeSystem", "NBridgeDBus"],
      path: "Plugins/Location/Sources", swiftSettings: strict),
    .target(
      name: "NBridgeAutostart", dependencies: ["NBridgePlugin", "NBridgeSystem"], path: "Plugins/Autostart/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeFS", dependencies: ["NBridgePlugin", "NBridgeSystem"], path: "Plugins/FS/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeDialog", dependencies: ["NBridgePlugin", "NBridgeSystem", "NBridgeDBus", "NBridgeFS"],
      path: "Plugins/Dialog/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeWindowService", dependencies: ["NBridgePlugin"], path: "Plugins/Window/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeTray", dependencies: ["NBridgePlugin", "NBridgeSystem", "NBridgeDBus", "CPixbuf"],
      path: "Plugins/Tray/Sources", swiftSettings: strict),
    .target(
      name: "NBridgeShortcut", dependencies: ["NBridgePlugin", "NBridgeDBus", "CX11"], path: "Plugins/Shortcut/Sources",
      swiftSettings: strict),
    .target(
      name: "NBridgeMenu", dependencies: ["NBridgePlugin"], path: "Plugins/Menu/Sources", swiftSettings: strict),
    .target(
      name: "NBridgeBuiltins",
      dependencies: [
        "NBridgePlugin", "NBridgeApp", "NBridgeStorage", "NBridgePasteboard", "NBridgeNotification",
        "NBridgeBackground", "NBridgeLocation", "NBridgeAutostart", "NBridgeFS", "NBridgeWindowService",
        "NBridgeDialog", "NBridgeTray", "NBridgeShortcut", "NBridgeMenu",
      ],
      swiftSettings: strict),

    // The command line as a library: `NBridgeCommand.main(plugins:)`.
    .target(
      name: "NBridgeCLI",
      dependencies: [
        "NBridgeRuntime", "NBridgeAppSetup", "NBridgeTestRunner", "NBridgeConsole", "NBridgeLifecycle", "NBridgeLog",
        "NBridgeWeb", "NBridgeModules", "NBridgeCompat", "NBridgeControl", "NBridgePlugin", "NBridgeWindow",
        "NBridgeSystem", "NBridgeWatchdog", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict),

    .executableTarget(
      name: "nbridge",
      dependencies: ["NBridgeCLI", "NBridgeBuiltins", "CStartArguments"],
      exclude: ["startup-order.txt"],
      swiftSettings: strict,
      // Start-up: the Swift runtime and FoundationEssentials (from ArgumentParser) linked in
      // statically, by lld, with packed relative relocations: 10 fewer shared libraries to
      // map and relocate, about 4 ms and 4 MiB less at every start (docs/architecture.md).
      // The functions a run executes first are laid out together (startup-order.txt, written by
      // Benchmarks/StartupOrder/generate.py): 2.3 MiB less resident code at every start.
      // Linked at a fixed address (-no-pie, as Go links its programs): a position-independent
      // executable has 42,000 pointers in its Swift metadata relocated at every start, about 130
      // page copies and 0.8-1.1 ms before `main` (docs/architecture.md). The shared libraries,
      // stack, heap and JavaScriptCore's memory keep their random addresses; a packager who
      // wants the executable's too removes "-no-pie".
      linkerSettings: [
        .unsafeFlags(
          [
            "-Xclang-linker", "-no-pie", "-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims",
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker",
            "pack-relative-relocs", "-Xlinker",
            "--symbol-ordering-file=\(Context.packageDirectory)/Sources/nbridge/startup-order.txt",
            "-Xlinker", "--no-warn-symbol-ordering",
          ],
          .when(platforms: [.linux]))
      ]),
    .executableTarget(
      name: "nbridge-bench",
      dependencies: [
        "NBridgeRuntime", "NBridgeConsole", "NBridgePlugin", "NBridgeTesting", "NBridgeSystem", "CJavaScriptCore", "CSQLite",
        "CGio",
      ],
      path: "Benchmarks/Sources", swiftSettings: strict),
    .executableTarget(
      name: "nbridge-bench-webview",
      dependencies: [
        "NBridgeWindow", "NBridgeRuntime", "NBridgePlugin", "NBridgeSystem", "NBridgeEcho", "NBridgeBuiltins", "CWebKitGTK",
        "CGio",
      ],
      path: "Benchmarks/WebView", swiftSettings: strict),
    .executableTarget(
      name: "nbridge-bench-calls", dependencies: ["NBridgeRuntime", "NBridgePlugin", "NBridgeEcho"],
      path: "Benchmarks/Calls", swiftSettings: strict),

    .testTarget(
      name: "NBridgeWindowTests", dependencies: ["NBridgeWindow", "NBridgeRuntime", "NBridgePlugin", "NBridgeTesting"],
      swiftSettings: strict),
    .testTarget(name: "NBridgeModuleSyntaxTests", dependencies: ["NBridgeModuleSyntax"], swiftSettings: strict),
    .testTarget(name: "NBridgeSystemTests", dependencies: ["NBridgeSystem", "CLibraryLoader"], swiftSettings: strict),
    .testTarget(name: "NBridgePluginTests", dependencies: ["NBridgePlugin"], swiftSettings: strict),
    .testTarget(name: "NBridgeAppSetupTests", dependencies: ["NBridgeAppSetup"], swiftSettings: strict),
    .testTarget(name: "NBridgeLogTests", dependencies: ["NBridgeLog"], swiftSettings: strict),
    .testTarget(
      name: "NBridgeRuntimeTests",
      dependencies: [
        "NBridgeRuntime", "NBridgeConsole", "NBridgeModules", "NBridgeTesting", "NBridgePlugin", "NBridgeModuleSyntax",
        "NBridgeWeb",
      ],
      // Embedded/: a file the EmbedFiles plugin embeds (EmbeddedFilesTests).
      exclude: ["Embedded"], swiftSettings: strict, plugins: ["EmbedFiles"]),
    .testTarget(
      name: "NBridgeAppTests", dependencies: ["NBridgeApp", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/App/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeStorageTests", dependencies: ["NBridgeStorage", "NBridgeSQLite", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Storage/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgePasteboardTests", dependencies: ["NBridgePasteboard", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Pasteboard/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeNotificationTests",
      dependencies: ["NBridgeNotification", "NBridgeDBus", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Notification/Tests", swiftSettings: strict),
    // The built-in plugins' declared shapes against their Decodables and their results.
    .testTarget(
      name: "NBridgeBuiltinsTests", dependencies: ["NBridgeBuiltins", "NBridgePlugin", "NBridgeTesting"],
      swiftSettings: strict),
    // A plugin package made by `nbridge init --plugin`, built against a tagged clone of this repository.
    .testTarget(name: "PackageTests", dependencies: ["NBridgeTesting", "CLITestSupport"], swiftSettings: strict),
    .testTarget(
      name: "NBridgeBackgroundTests",
      dependencies: ["NBridgeBackground", "NBridgePlugin", "NBridgeSystem", "NBridgeTesting"],
      path: "Plugins/Background/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeLocationTests",
      dependencies: ["NBridgeLocation", "NBridgeDBus", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Location/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeAutostartTests", dependencies: ["NBridgeAutostart", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Autostart/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeFSTests", dependencies: ["NBridgeFS", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/FS/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeWindowServiceTests", dependencies: ["NBridgeWindowService", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Window/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeDialogTests", dependencies: ["NBridgeDialog", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Dialog/Tests", swiftSettings: strict),
    .testTarget(
      name: "NBridgeTrayTests", dependencies: ["NBridgeTray", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Tray/Tests", exclude: ["Fixtures"], swiftSettings: strict),
    .testTarget(
      name: "NBridgeShortcutTests", dependencies: ["NBridgeShortcut", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Shortcut/Tests", exclude: ["Fixtures"], swiftSettings: strict),
    .testTarget(
      name: "NBridgeMenuTests", dependencies: ["NBridgeMenu", "NBridgePlugin", "NBridgeTesting"],
      path: "Plugins/Menu/Tests", swiftSettings: strict),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "NBridgeCLI", "NBridgeControl", "NBridgePlugin", "NBridgeTesting", "NBridgeRuntime", "NBridgeSystem",
        "NBridgeSQLite", "CLITestSupport",
      ],
      exclude: ["Fixtures"],
      swiftSettings: strict),
    // What the CLI puts on a user's machine and how an installed app is reached there: `bundle`,
    // `init`, `install`/`uninstall`/`open`, URL hand-off, single instance and the control socket,
    // `simulate`, background fetch's wake-ups, the manifest as install input, how the shipped
    // executable is linked. A target of its own beside CLITests: both build and run side by side.
    .testTarget(
      name: "InstallCommandTests",
      dependencies: [
        "NBridgeCLI", "NBridgeControl", "NBridgePlugin", "NBridgeTesting", "NBridgeRuntime", "NBridgeSystem",
        "CLITestSupport",
      ],
      exclude: ["Fixtures"],
      swiftSettings: strict),
    // `nbridge app` through the CLI: windows, pages, the inspector, `test --page` (each test starts Xvfb).
    .testTarget(
      name: "AppCommandTests",
      dependencies: ["NBridgeControl", "NBridgePlugin", "NBridgeTesting", "NBridgeRuntime", "CLITestSupport"],
      exclude: ["Fixtures"],
      swiftSettings: strict),
    // What CLITests and AppCommandTests share: a static file server, the log viewer, the sample app, X windows.
    .target(name: "CLITestSupport", dependencies: ["NBridgeTesting"], path: "Tests/CLITestSupport", swiftSettings: strict),
  ]
)
