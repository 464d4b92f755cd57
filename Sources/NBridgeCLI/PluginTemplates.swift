import NBridgePlugin

/// The files of the Swift package `nbridge init --plugin NAME DIR` makes.
enum PluginTemplates {
  static func package(_ p: PluginNames, nbridge: NBridgeDependency) -> String {
    let n = nbridge.identity
    return #"""
      // swift-tools-version:6.2
      import PackageDescription

      let package = Package(
        name: "\#(p.executable)",
        platforms: [.macOS(.v15)],
        products: [
          // The whole nbridge CLI with the built-in plugins and this package's.
          .executable(name: "\#(p.executable)", targets: ["\#(p.executable)"]),
          // The plugin alone, for other programs to register.
          .library(name: "\#(p.target)", targets: ["\#(p.target)"]),
        ],
        dependencies: [
          \#(nbridge.declaration)
        ],
        targets: [
          .target(name: "\#(p.target)", dependencies: [.product(name: "NBridgePlugin", package: "\#(n)")]),
          .executableTarget(
            name: "\#(p.executable)",
            dependencies: [
              "\#(p.target)", .product(name: "NBridgeCLI", package: "\#(n)"),
              .product(name: "NBridgeBuiltins", package: "\#(n)"),
            ],
            // Linked as nbridge's own executable is: Swift's runtime statically (`\#(p.executable) bundle`
            // refuses an executable that needs it installed), by lld, at a fixed address.
            linkerSettings: [
              .unsafeFlags(
                [
                  "-Xclang-linker", "-no-pie", "-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims",
                  "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                ],
                .when(platforms: [.linux]))
            ]),
          .testTarget(
            name: "\#(p.target)Tests",
            dependencies: ["\#(p.target)", .product(name: "NBridgeTesting", package: "\#(n)")]),
        ]
      )

      """#
  }

  static func plugin(_ p: PluginNames) -> String {
    #"""
    import NBridgePlugin

    /// `nbridge.\#(p.service)`: says hello, and tells its listeners whom it greeted.
    @BridgeActor
    public final class \#(p.target): Plugin {
      /// The service's name, read at every start: the definition below is built on its first call.
      public nonisolated static let declaration = PluginDeclaration(service: "\#(p.service)")
      /// The service, its action and its event: what JS can call, and what `\#(p.executable) types` prints.
      public nonisolated static let definition = PluginDefinition<\#(p.target)>(
        declaration, summary: "Says hello, and tells listeners whom it greeted.",
        actions: [
          // The options' shape, { name: string }, is read from HelloOptions; the result's is declared.
          Action(
            "hello", result: .fields(["message": .string, "count": .integer]),
            summary: "Greets someone by name; an empty name is invalid_parameter."
          ) { (plugin, options: HelloOptions, _) in
            guard !options.name.isEmpty else { throw BridgeError.invalidParameter("name", "must not be empty") }
            plugin.count += 1
            plugin.context.emit("greeted", Greeted(name: options.name, count: plugin.count))
            return Greeting(message: "Hello, \(options.name)!", count: plugin.count)
          }
        ],
        events: [
          EventSpec(
            "greeted", payload: .fields(["name": .string, "count": .integer]), summary: "Someone was just greeted.")
        ])

      private let context: PluginContext
      private var count = 0

      /// Made once per run, on first use; keeps the context to emit events through.
      public init(context: PluginContext) {
        self.context = context
      }
    }

    /// `hello`'s options: `{ name }`.
    struct HelloOptions: Decodable {
      var name: String
    }

    /// `hello`'s result: the greeting and how many this run has made.
    struct Greeting: Encodable {
      var message: String
      var count: Int
    }

    /// The `greeted` event's payload.
    struct Greeted: Encodable {
      var name: String
      var count: Int
    }

    """#
  }

  static func main(_ p: PluginNames) -> String {
    #"""
    import \#(p.target)
    import NBridgeBuiltins
    import NBridgeCLI

    // The whole nbridge CLI (run, test, plugins, types, app, init) with the built-in plugins and this one.
    NBridgeCommand.main(plugins: Builtins.plugins + [\#(p.target).self])

    """#
  }

  static func swiftTest(_ p: PluginNames) -> String {
    #"""
    import \#(p.target)
    import NBridgeTesting
    import Testing

    /// NBridgeTest.evaluate runs JavaScript in a real runtime with the plugin registered.
    @Suite struct \#(p.target)Tests {
      @Test func helloGreetsByNameAndCounts() async throws {
        let value = try await NBridgeTest.evaluate(
          """
          await nbridge.\#(p.service).hello({ name: 'Ada' });
          return await nbridge.\#(p.service).hello({ name: 'Grace' });
          """, plugins: [\#(p.target).self])
        #expect(value["message"] == .string("Hello, Grace!"))
        #expect(value["count"] == .number(2))
      }

      @Test func anEmptyNameIsInvalid() async throws {
        do {
          _ = try await NBridgeTest.evaluate("return await nbridge.\#(p.service).hello({ name: '' })", plugins: [\#(p.target).self])
          Issue.record("hello({ name: '' }) resolved")
        } catch let error as ScriptError {
          #expect(error.code == "invalid_parameter")
          #expect(error.message.contains("\"name\" must not be empty"))
        }
      }

      @Test func listenersHearWhoWasGreeted() async throws {
        let heard = try await NBridgeTest.evaluate(
          """
          const names = [];
          const handle = nbridge.\#(p.service).addListener('greeted', (event) => names.push(event.name));
          await nbridge.\#(p.service).hello({ name: 'Ada' });
          handle.remove();
          await nbridge.\#(p.service).hello({ name: 'Grace' });
          return names;
          """, plugins: [\#(p.target).self])
        #expect(heard == ["Ada"])
      }
    }

    """#
  }

  static func jsTest(_ p: PluginNames) -> String {
    #"""
    // `\#(p.executable) test` (make test) runs every *.test.js under Tests/js with this package's plugin registered.

    test('hello greets by name', async () => {
      const { message, count } = await nbridge.\#(p.service).hello({ name: 'Ada' });
      assert.equal(message, 'Hello, Ada!');
      assert.equal(count, 1);
    });

    test('listeners hear whom it greeted', async () => {
      const heard = [];
      const handle = nbridge.\#(p.service).addListener('greeted', (event) => heard.push(event));
      await nbridge.\#(p.service).hello({ name: 'Grace' });
      handle.remove();
      assert.deepEqual(heard, [{ name: 'Grace', count: 2 }]);
    });

    test('an empty name is invalid_parameter', async () => {
      await assert.rejects(nbridge.\#(p.service).hello({ name: '' }), 'invalid_parameter');
    });

    """#
  }

  static func index(_ p: PluginNames) -> String {
    #"""
    // The app's entry point: `.build/debug/\#(p.executable) run www/index.js -- Ada` (make run).
    const handle = nbridge.\#(p.service).addListener('greeted', (event) => console.log('(greeting #' + event.count + ')'));
    const { message } = await nbridge.\#(p.service).hello({ name: nbridge.args[0] || 'world' });
    console.log(message);
    handle.remove();

    """#
  }

  static func makefile(_ p: PluginNames) -> String {
    #"""
    # `make run` builds this package's CLI and runs the app; `make test` runs the Swift and JS tests.
    BIN := .build/debug/\#(p.executable)

    .PHONY: build run test

    build:
    \#tswift build --product \#(p.executable)

    run: build
    \#t$(BIN) run www/index.js

    test:
    \#tswift build --build-tests
    \#tswift test --skip-build
    \#t$(BIN) test Tests/js

    """#
  }

  static func readme(_ p: PluginNames, _ names: AppNames, nbridge: NBridgeDependency) -> String {
    #"""
    # \#(names.name)

    A Swift package with an [nbridge](\#(NBridgeVersion.repository)) plugin, `\#(p.target)`
    (`nbridge.\#(p.service)` in JavaScript), and its own CLI, `\#(p.executable)`: the whole `nbridge`
    command line (`run`, `test`, `plugins`, `types`, `app`, `init`) with the built-in plugins and this one.

    ```sh
    make test   # swift build, swift test, then .build/debug/\#(p.executable) test Tests/js
    make run    # .build/debug/\#(p.executable) run www/index.js
    swift build -c release && .build/release/\#(p.executable) bundle www   # .deb, .rpm, .tar.gz with the plugin
    ```

    - `Sources/\#(p.target)/\#(p.target).swift`: the plugin (one action, `hello`; one event, `greeted`).
    - `Sources/\#(p.executable)/main.swift`: the CLI, one line.
    - `Tests/\#(p.target)Tests`: Swift tests through `NBridgeTesting`'s `NBridgeTest`.
    - `Tests/js/*.test.js`: JS tests, run by `\#(p.executable) test`.
    - `www/`: the app (`index.js`, `nbridge.json`).

    `.build/debug/\#(p.executable) types` prints TypeScript declarations with `nbridge.\#(p.service)` in them.
    nbridge comes from `\#(nbridge.declaration)` in `Package.swift`.

    """#
  }
}
