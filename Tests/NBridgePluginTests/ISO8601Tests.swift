import NBridgePlugin
import Testing

@Suite struct ISO8601Tests {
  @Test func formatsLikeToISOString() {
    #expect(ISO8601.format(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
    #expect(ISO8601.format(milliseconds: 1_714_555_800_123) == "2024-05-01T09:30:00.123Z")
    #expect(ISO8601.format(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
    #expect(ISO8601.format(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    #expect(ISO8601.format(milliseconds: -2_203_891_200_000) == "1900-03-01T00:00:00.000Z")
  }

  @Test func parsesWhatItFormats() {
    for ms: Int64 in [0, -1, 1_714_555_800_123, 951_782_400_000, 253_402_300_799_999] {
      #expect(ISO8601.parse(ISO8601.format(milliseconds: ms)) == ms)
    }
  }

  @Test func parsesOffsetsFractionsAndDates() {
    #expect(ISO8601.parse("2024-05-01T11:30:00+02:00") == 1_714_555_800_000)
    #expect(ISO8601.parse("2024-05-01T04:30:00-0500") == 1_714_555_800_000)
    #expect(ISO8601.parse("2024-05-01T09:30:00.123456Z") == 1_714_555_800_123)
    #expect(ISO8601.parse("2024-05-01T09:30:00.1Z") == 1_714_555_800_100)
    #expect(ISO8601.parse("2024-05-01T09:30Z") == 1_714_555_800_000)
    #expect(ISO8601.parse("2024-05-01") == 1_714_521_600_000)
  }

  @Test func refusesWhatIsNotADate() {
    for text in [
      "", "2024", "2024-13-01", "2023-02-29", "2024-05-01T25:00Z", "2024-05-01T09:30:00Zjunk",
      "2024-05-01T09:30:60Z", "tomorrow", "2024-05-01T09:30:00.Z",
    ] {
      #expect(ISO8601.parse(text) == nil, "\(text)")
    }
  }

  @Test func countsWholeDaysRoundingDown() {
    let day: Int64 = 86_400_000
    #expect(ISO8601.wholeDays(from: 0, to: day - 1) == 0)
    #expect(ISO8601.wholeDays(from: 0, to: 5 * day) == 5)
    #expect(ISO8601.wholeDays(from: day, to: 0) == -1)
  }

  @Test func nowIsAfter2024() {
    #expect(ISO8601.currentMilliseconds() > 1_704_067_200_000)
    #expect(ISO8601.parse(ISO8601.now()) != nil)
  }
}

@Suite struct RandomIDTests {
  @Test func uuidIsVersion4AndUnique() {
    let a = RandomID.uuid()
    let b = RandomID.uuid()
    #expect(a != b)
    #expect(RandomID.isUUID(a))
    let chars = Array(a)
    #expect(chars[14] == "4")
    #expect("89ab".contains(chars[19]))
    #expect(a == a.lowercased())
  }

  @Test func hexHasTheAskedLength() {
    #expect(RandomID.hex(byteCount: 5).count == 10)
    #expect(RandomID.bytes(13).count == 13)
    #expect(!RandomID.isUUID("not-a-uuid"))
  }
}
