// swift-tools-version:6.1
import PackageDescription

/// Swift 6 language mode (the tools-version default) turns on complete concurrency
/// checking; warnings are errors so none can creep in.
let strict: [SwiftSetting] = [.unsafeFlags(["-warnings-as-errors"])]

let package = Package(
  name: "nbridge",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "nbridge", targets: ["nbridge"]),
    .library(name: "NBridgePlugin", targets: ["NBridgePlugin"]),
    .library(name: "NBridgeRuntime", targets: ["NBridgeRuntime"]),
    .library(name: "NBridgeTesting", targets: ["NBridgeTesting"]),
    .library(name: "NBridgeBuiltins", targets: ["NBridgeBuiltins"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    // C modules: one per system library, nothing but a header.
    .systemLibrary(
      name: "CJavaScriptCore", path: "Sources/CJavaScriptCore",
      pkgConfig: "javascriptcoregtk-4.1", providers: [.apt(["libjavascriptcoregtk-4.1-dev"])]),
    .systemLibrary(
      name: "CSQLite", path: "Plugins/Storage/CSQLite",
      pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(
      name: "CX11", path: "Plugins/Pasteboard/CX11",
      pkgConfig: "xfixes", providers: [.apt(["libx11-dev", "libxfixes-dev"])]),
    .systemLibrary(
      name: "CGio", path: "Plugins/Notification/CGio",
      pkgConfig: "gio-2.0", providers: [.apt(["libglib2.0-dev"])]),

    // The plugin API: what plugin authors import. No JavaScriptCore here.
    .target(name: "NBridgePlugin", swiftSettings: strict),
    // The runtime: the only Swift code that touches raw JavaScriptCore pointers.
    .target(name: "NBridgeRuntime", dependencies: ["NBridgePlugin", "CJavaScriptCore"], swiftSettings: strict),
    // What tests and plugin authors use to run JS against a runtime.
    .target(name: "NBridgeTesting", dependencies: ["NBridgeRuntime", "NBridgePlugin"], swiftSettings: strict),

    // Built-in plugins, each written only against the public plugin API.
    .target(
      name: "AppPlugin", dependencies: ["NBridgePlugin"], path: "Plugins/App/Sources",
      swiftSettings: strict),
    .target(
      name: "StoragePlugin", dependencies: ["NBridgePlugin", "CSQLite"], path: "Plugins/Storage/Sources",
      swiftSettings: strict),
    .target(
      name: "PasteboardPlugin", dependencies: ["NBridgePlugin", "CX11"], path: "Plugins/Pasteboard/Sources",
      swiftSettings: strict),
    .target(
      name: "NotificationPlugin", dependencies: ["NBridgePlugin", "CGio"],
      path: "Plugins/Notification/Sources", swiftSettings: strict),
    .target(
      name: "NBridgeBuiltins",
      dependencies: ["NBridgePlugin", "AppPlugin", "StoragePlugin", "PasteboardPlugin", "NotificationPlugin"],
      swiftSettings: strict),

    .executableTarget(
      name: "nbridge",
      dependencies: [
        "NBridgeRuntime", "NBridgeBuiltins", "NBridgePlugin",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "nbridge-bench", dependencies: ["NBridgeRuntime", "NBridgePlugin", "NBridgeBuiltins", "CJavaScriptCore"],
      path: "Benchmarks/Sources", swiftSettings: strict),

    .testTarget(name: "NBridgePluginTests", dependencies: ["NBridgePlugin"], swiftSettings: strict),
    .testTarget(
      name: "NBridgeRuntimeTests", dependencies: ["NBridgeRuntime", "NBridgeTesting", "NBridgePlugin"],
      swiftSettings: strict),
    .testTarget(
      name: "BuiltinPluginTests",
      dependencies: [
        "NBridgeTesting", "NBridgePlugin", "NBridgeBuiltins", "AppPlugin", "StoragePlugin",
        "PasteboardPlugin", "NotificationPlugin",
      ],
      swiftSettings: strict),
    .testTarget(name: "CLITests", dependencies: ["NBridgePlugin"], swiftSettings: strict),
  ]
)
