import NBridgeNotification
import NBridgePlugin
import NBridgeTesting
import Testing

/// Every action, event and error of `nbridge.notification`, in-process and headless.
@Suite(.serialized)
struct NotificationPluginTests {
  func evaluate(_ body: String) async throws -> JSONValue {
    try await NBridgeTest.evaluate(body, plugins: [NotificationPlugin.self])
  }

  /// The code and message a call rejected with.
  func rejection(_ call: String) async throws -> (code: String?, message: String) {
    do {
      let value = try await evaluate("return await \(call);")
      Issue.record("\(call) resolved with \(value)")
      return (nil, "")
    } catch let error as ScriptError {
      return (error.code, error.message)
    }
  }

  @Test func showResolvesWithAnIDAndEmitsTheRecord() async throws {
    let result = try await evaluate(
      """
      const n = nbridge.notification;
      const received = new Promise((resolve) => n.addListener('received', resolve));
      const shown = await n.show({title: 'Copied', body: 'Retina', id: 'c1', data: {word: 'Retina'}});
      const record = await received;
      return {shown, record, delivered: await n.getDelivered()};
      """)
    #expect(result["shown"] == ["id": "c1"])
    let record = try #require(result["record"]?.objectValue)
    #expect(record["id"] == "c1" && record["title"] == "Copied" && record["body"] == "Retina")
    #expect(record["data"] == ["word": "Retina"])
    #expect(record["every"] == nil)
    let at = try #require(record["at"]?.stringValue)
    let deliveredAt = try #require(record["deliveredAt"]?.stringValue)
    #expect(ISO8601.parse(at) != nil && ISO8601.parse(deliveredAt)! >= ISO8601.parse(at)!)
    #expect(result["delivered"] == [.object(record)])
  }

  @Test func showGeneratesUUIDs() async throws {
    let result = try await evaluate(
      "const a = await nbridge.notification.show({title: 'a', body: ''}); const b = await nbridge.notification.show({title: 'b', body: ''}); return [a.id, b.id];"
    )
    let ids = result.arrayValue?.compactMap { $0.stringValue } ?? []
    #expect(ids.count == 2 && ids[0] != ids[1])
    #expect(ids.allSatisfy { RandomID.isUUID($0) })
  }

  @Test func scheduleIsPendingUntilDueThenDelivered() async throws {
    try await NBridgeTest.withRuntime(plugins: [NotificationPlugin.self]) { rt in
      let first = try await rt.evaluate(
        """
        const n = nbridge.notification;
        globalThis.received = [];
        n.addListener('received', (r) => received.push(r));
        const scheduled = await n.schedule({title: 'Soon', body: '', id: 's1', after: 30, data: [1]});
        return {scheduled, pending: await n.getPending()};
        """)
      #expect(first["scheduled"] == ["id": "s1"])
      #expect(first["pending"]?.arrayValue?.map { $0["id"] } == ["s1"])
      #expect(first["pending"]?.arrayValue?.first?["deliveredAt"] == nil)
      await rt.clock.advance(by: .milliseconds(29))
      #expect(try await rt.evaluate("return received.length") == 0)
      await rt.clock.advance(by: .milliseconds(1))
      #expect(try await waitUntil(rt, "received.length > 0"), "no received event within 10 s")
      let after = try await rt.evaluate("return {received, pending: await nbridge.notification.getPending()}")
      let record = after["received"]?.arrayValue?.first
      #expect(after["received"]?.arrayValue?.count == 1)
      #expect(record?["data"] == [1])
      #expect(record?["at"] == first["pending"]?.arrayValue?.first?["at"])
      #expect(after["pending"] == [])
    }
  }

  @Test func everyRepeatsAndCancelStopsIt() async throws {
    try await NBridgeTest.withRuntime(plugins: [NotificationPlugin.self]) { rt in
      _ = try await rt.evaluate(
        """
        globalThis.seen = [];
        nbridge.notification.addListener('received', (r) => seen.push(r.at));
        await nbridge.notification.schedule({title: 'tick', body: '', id: 'tick', every: 100});
        """)
      for _ in 0..<3 { await rt.clock.advance(by: .milliseconds(100)) }
      #expect(try await waitUntil(rt, "seen.length >= 3"), "three received events within 10 s")
      let result = try await rt.evaluate(
        """
        const n = nbridge.notification;
        await n.cancel({id: 'tick'});
        return {seen, pending: await n.getPending(), every: (await n.getDelivered())[0].every};
        """)
      await rt.clock.advance(by: .seconds(1))
      let times = result["seen"]?.arrayValue?.compactMap { $0.stringValue.flatMap(ISO8601.parse) } ?? []
      #expect(times.count == 3)
      #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 100 }, "keeps its rhythm: \(times)")
      #expect(result["pending"] == [])
      #expect(result["every"] == 100)
      #expect(try await rt.evaluate("return seen.length") == 3)
    }
  }

  /// Evaluates `condition` until it is true, for at most 10 s of wall time. A due notification
  /// is presented first (on the session bus, or on stderr) and its `received` event is sent after
  /// that: the event comes some loop turns after the clock moved, later on a loaded machine.
  private func waitUntil(_ rt: TestRuntime, _ condition: String) async throws -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
      if try await rt.evaluate("return \(condition)") == true { return true }
      try await Task.sleep(for: .milliseconds(5))
    }
    return false
  }

  @Test func cancelOfAnUnknownIDIsNotFound() async throws {
    let (code, message) = try await rejection("nbridge.notification.cancel({id: 'nope'})")
    #expect(code == "not_found")
    #expect(message == "notification.cancel: no notification has the id \"nope\"")
  }

  @Test func cancelOfADeliveredIDResolves() async throws {
    let result = try await evaluate(
      "await nbridge.notification.show({title: 't', body: '', id: 'd'}); return await nbridge.notification.cancel({id: 'd'});"
    )
    #expect(result == .null)
  }

  @Test func badInputIsInvalidParameterNamingTheField() async throws {
    let cases: [(String, String)] = [
      ("show({body: 'b'})", "\"title\" is required"),
      ("show({title: '', body: 'b'})", "\"title\" must be a non-empty string"),
      ("schedule({title: 't', body: '', at: 'soonish'})", "\"at\" must be an ISO 8601 time"),
      ("schedule({title: 't', body: '', after: -1})", "\"after\" must be a number of milliseconds"),
      ("schedule({title: 't', body: '', at: 1, after: 1})", "\"after\" cannot be given together with \"at\""),
      ("schedule({title: 't', body: ''})", "\"at\" is required"),
      (
        "show({title: 't', body: '', actions: [1,2,3,4,5,6,7,8,9].map((i) => ({id: 'a' + i, title: 'A'}))})",
        "\"actions\" may hold at most 8 actions"
      ),
    ]
    for (call, expected) in cases {
      let (code, message) = try await rejection("nbridge.notification.\(call)")
      #expect(code == "invalid_parameter", "\(call)")
      #expect(message.contains(expected), "\(call): \(message)")
    }
  }

  @Test func checkAndRequestPermissionAnswerGranted() async throws {
    let result = try await evaluate(
      "return [await nbridge.notification.checkPermission(), await nbridge.notification.requestPermission()];")
    #expect(result == ["granted", "granted"])
  }
}
