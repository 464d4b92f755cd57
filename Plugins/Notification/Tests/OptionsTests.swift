import NBridgePlugin
import Testing

@testable import NBridgeNotification

/// `show` and `schedule` options: what is accepted, and the field each rejection names.
struct OptionsTests {
  let now: Int64 = 1_700_000_000_000

  func show(_ options: JSONValue) throws -> StoredNotification {
    try JSONValueDecoder().decode(ShowOptions.self, from: options).validated(now: now) { "generated" }
  }

  func schedule(_ options: JSONValue) throws -> StoredNotification {
    try JSONValueDecoder().decode(ScheduleOptions.self, from: options).validated(now: now) { "generated" }
  }

  /// The `invalid_parameter` message `body` throws, or nil when it throws nothing or something else.
  func rejection(_ body: () throws -> StoredNotification) -> String? {
    do {
      _ = try body()
      return nil
    } catch let error as BridgeError where error.code == .invalidParameter {
      return error.message
    } catch {
      return nil
    }
  }

  @Test func showTakesTitleBodyIDDataAndActions() throws {
    let n = try show([
      "title": "Hi", "body": "there", "id": "n1", "data": ["k": [1, 2]],
      "actions": [["id": "yes", "title": "Yes"]],
    ])
    #expect(n.id == "n1")
    #expect(n.title == "Hi" && n.body == "there")
    #expect(n.data == ["k": [1, 2]])
    #expect(n.actions == [NotificationButton(id: "yes", title: "Yes")])
    #expect(n.at == now && n.every == nil)
  }

  @Test func showGeneratesAnIDAndNullData() throws {
    let n = try show(["title": "Hi", "body": ""])
    #expect(n.id == "generated")
    #expect(n.data == .null)
  }

  @Test func missingOrEmptyTitleNamesTitle() {
    #expect(rejection { try show(["body": "b"]) } == "\"title\" is required")
    #expect(rejection { try show(["title": "", "body": "b"]) } == "\"title\" must be a non-empty string")
    #expect(
      rejection { try schedule(["title": 3, "body": "b", "after": 5]) }?.hasPrefix("\"title\" must be a string") == true
    )
  }

  @Test func tooManyActionsNamesActions() {
    let nine = JSONValue.array((0..<9).map { ["id": .string("a\($0)"), "title": "A"] })
    #expect(
      rejection { try show(["title": "t", "body": "b", "actions": nine]) }
        == "\"actions\" may hold at most 8 actions (got 9)")
    let eight = JSONValue.array((0..<8).map { ["id": .string("a\($0)"), "title": "A"] })
    #expect(rejection { try show(["title": "t", "body": "b", "actions": eight]) } == nil)
  }

  @Test func badActionsNameTheAction() {
    let reserved: JSONValue = [["id": "default", "title": "Go"]]
    #expect(
      rejection { try show(["title": "t", "body": "b", "actions": reserved]) }?.hasPrefix("\"actions[0].id\"") == true)
    let twice: JSONValue = [["id": "a", "title": "A"], ["id": "a", "title": "B"]]
    #expect(
      rejection { try show(["title": "t", "body": "b", "actions": twice]) }?.hasPrefix("\"actions[1].id\"") == true)
    let untitled: JSONValue = [["id": "a"]]
    #expect(
      rejection { try show(["title": "t", "body": "b", "actions": untitled]) } == "\"actions[0].title\" is required")
  }

  @Test func atAcceptsISO8601AndEpochMilliseconds() throws {
    #expect(try schedule(["title": "t", "body": "b", "at": "2030-01-31T09:00:00Z"]).at == 1_896_080_400_000)
    #expect(try schedule(["title": "t", "body": "b", "at": "2030-01-31T10:00:00+01:00"]).at == 1_896_080_400_000)
    #expect(try schedule(["title": "t", "body": "b", "at": 1_896_080_400_000]).at == 1_896_080_400_000)
  }

  @Test func atInAnUnknownFormatNamesAt() {
    for bad: JSONValue in ["tomorrow", "31/01/2030", "2030-02-30T00:00:00Z", true] {
      #expect(rejection { try schedule(["title": "t", "body": "b", "at": bad]) }?.hasPrefix("\"at\" must be") == true)
    }
  }

  @Test func afterCountsFromNowAndMustNotBeNegative() throws {
    #expect(try schedule(["title": "t", "body": "b", "after": 1500]).at == now + 1500)
    #expect(try schedule(["title": "t", "body": "b", "after": 0]).at == now)
    #expect(
      rejection { try schedule(["title": "t", "body": "b", "after": -1]) }?.hasPrefix("\"after\" must be") == true)
  }

  @Test func atAndAfterTogetherAreRejected() {
    #expect(
      rejection { try schedule(["title": "t", "body": "b", "at": 5, "after": 5]) }
        == "\"after\" cannot be given together with \"at\"")
  }

  @Test func everyAloneFirstFiresOneIntervalFromNow() throws {
    let n = try schedule(["title": "t", "body": "b", "every": 60_000])
    #expect(n.at == now + 60_000)
    #expect(n.every == 60_000)
    let withAt = try schedule(["title": "t", "body": "b", "at": .number(Double(now + 5)), "every": 1000])
    #expect(withAt.at == now + 5 && withAt.every == 1000)
  }

  @Test func everyBelowTheMinimumAndNoTimeAreRejected() {
    #expect(
      rejection { try schedule(["title": "t", "body": "b", "every": 99]) }?.hasPrefix("\"every\" must be") == true)
    #expect(rejection { try schedule(["title": "t", "body": "b"]) }?.hasPrefix("\"at\" is required") == true)
  }
}
