import NBridgePlugin
import NBridgeTesting
import Testing

/// Calls of actions that start at the end of the turn (`Action.startsAtTurnEnd`, storage's
/// writes): the calls a turn makes reach the runtime together, in order, and settle as any call does.
@Suite struct TurnEndCallTests {
  @Test func theCallsOfOneTurnStartTogetherInTheOrderTheyWereMade() async throws {
    try await NBridgeTest.withRuntime(plugins: [NotesPlugin.self]) { rt in
      let value = try await rt.evaluate(
        """
        const calls = [];
        for (let i = 0; i < 50; i++) calls.push(nbridge.notes.note({ n: i }));
        const answers = await Promise.all(calls);
        return [answers.every((a) => a === null), await nbridge.notes.seen()];
        """)
      #expect(value == [true, .array((0..<50).map { .number(Double($0)) })])
      // The first starts at once (as a call awaited on its own does); the 49 after it in one entry.
      #expect(await rt.callsStartedTogether == 49)
    }
  }

  @Test func aBurstLargerThanOneEntryTakesStartsInOrderAllTogether() async throws {
    try await NBridgeTest.withRuntime(plugins: [NotesPlugin.self]) { rt in
      // bridge.js hands them over a few hundred at a time (each entry's text stays small).
      let value = try await rt.evaluate(
        """
        const calls = [];
        for (let i = 0; i < 1000; i++) calls.push(nbridge.notes.note({ n: i }));
        const answers = await Promise.all(calls);
        return [answers.length, answers.every((a) => a === null), await nbridge.notes.seen()];
        """)
      #expect(value == [1000, true, .array((0..<1000).map { .number(Double($0)) })])
      #expect(await rt.callsStartedTogether == 999)
    }
  }

  @Test func anotherCallStartsAfterTheWaitingOnesAndSeesThem() async throws {
    try await NBridgeTest.withRuntime(plugins: [NotesPlugin.self]) { rt in
      let value = try await rt.evaluate(
        """
        const first = [nbridge.notes.note({ n: 1 }), nbridge.notes.note({ n: 2 }), nbridge.notes.note({ n: 3 })];
        const seenThen = nbridge.notes.seen();
        const later = nbridge.notes.note({ n: 4 });
        await Promise.all([...first, later]);
        return [await seenThen, await nbridge.notes.seen()];
        """)
      #expect(value == [[1, 2, 3], [1, 2, 3, 4]])
      // 2 and 3 started together before seen(); 4 on its own at the end of the turn.
      #expect(await rt.callsStartedTogether == 3)
    }
  }

  @Test func aRefusedCallAmongThemRejectsWithItsCodeAndField() async throws {
    try await NBridgeTest.withRuntime(plugins: [NotesPlugin.self]) { rt in
      let value = try await rt.evaluate(
        """
        const outcomes = await Promise.allSettled([
          nbridge.notes.note({ n: 1 }), nbridge.notes.note({ n: 'two' }), nbridge.notes.note({}),
          nbridge.notes.note({ n: 4 }),
        ]);
        return [outcomes.map((o) => o.status), outcomes.filter((o) => o.reason).map((o) => [o.reason.code, o.reason.message]),
                await nbridge.notes.seen()];
        """)
      #expect(value[0] == ["fulfilled", "rejected", "rejected", "fulfilled"])
      #expect(
        value[1] == [
          ["invalid_parameter", "notes.note: \"n\" must be a number (got string)"],
          ["invalid_parameter", "notes.note: \"n\" is required"],
        ])
      #expect(value[2] == [1, 4])
      #expect(await rt.callsStartedTogether == 3)
    }
  }

  @Test func aCallAnsweredAtOnceLetsTheNextAwaitedOneStartOnItsOwnAndABurstStillStartsTogether() async throws {
    try await NBridgeTest.withRuntime(plugins: [NotesPlugin.self]) { rt in
      let value = try await rt.evaluate(
        """
        const answers = [];
        for (let i = 0; i < 5; i++) answers.push(await nbridge.notes.noteAtOnce({ n: i }));
        const burst = [];
        for (let i = 5; i < 15; i++) burst.push(nbridge.notes.noteAtOnce({ n: i }));
        answers.push(...await Promise.all(burst));
        return [answers.every((a) => a === null), await nbridge.notes.seen(), await nbridge.notes.answeredAtOnce()];
        """)
      #expect(value == [true, .array((0..<15).map { .number(Double($0)) }), 6])
      // Each awaited call started on its own (answered in its call); of the burst, the first on
      // its own and the nine after it in one entry.
      #expect(await rt.callsStartedTogether == 9)
    }
  }

  @Test func aServiceTheAppMayNotUseRefusesThemEachWithPermissionDenied() async throws {
    let value = try await NBridgeTest.evaluate(
      """
      const outcomes = await Promise.allSettled([nbridge.notes.note({ n: 1 }), nbridge.notes.note({ n: 2 })]);
      return outcomes.map((o) => [o.status, o.reason && o.reason.code]);
      """, plugins: [NotesPlugin.self], configure: { $0.deny = ["notes"] })
    #expect(value == [["rejected", "permission_denied"], ["rejected", "permission_denied"]])
  }
}

/// `notes.note({n})` (starts at the end of the turn, answered from a loop job) and `notes.seen()`.
@BridgeActor
final class NotesPlugin: Plugin {
  struct Note: OptionsFromJSON {
    let n: Double

    init(from decoder: any Decoder) throws {
      try self.init(n: try decoder.container(keyedBy: Field.self).decodeIfPresent(JSONValue.self, forKey: .n))
    }

    init(options: OptionsText) throws { try self.init(n: options.value("n")) }

    private init(n: JSONValue?) throws {
      guard let n else { throw BridgeError.invalidParameter("n", "is required") }
      guard case .number(let number) = n else { throw BridgeError.invalidParameter("n", "must be a number (got \(n.kindName))") }
      self.n = number
    }

    private enum Field: String, CodingKey { case n }
  }

  nonisolated static let definition = PluginDefinition<NotesPlugin>(
    service: "notes", summary: "Test plugin: notes numbers.",
    actions: [
      Action("note", options: .fields(["n": .number]), startsAtTurnEnd: true) {
        (plugin, options: Note, _, reply: Reply<JSONValue>) in
        plugin.notes.append(options.n)
        PluginContext.post { reply.resolve(.null) }
      },
      // Answered in the call when it starts on its own (as an awaited `storage.set` commits).
      Action("noteAtOnce", options: .fields(["n": .number]), startsAtTurnEnd: true) {
        (plugin, options: Note, _, reply: Reply<JSONValue>) in
        plugin.notes.append(options.n)
        if CallStart.together {
          PluginContext.post { reply.resolve(.null) }
        } else {
          plugin.answeredAtOnce += 1
          reply.resolve(.null)
        }
      },
      Action("seen", result: .array(.number)) { (plugin, _: JSONValue, _) in plugin.notes },
      Action("answeredAtOnce", result: .number) { (plugin, _: JSONValue, _) in plugin.answeredAtOnce },
    ])

  var notes: [Double] = []
  var answeredAtOnce = 0

  init(context: PluginContext) {}
}
