import NBridgePlugin
import Testing

@testable import NBridgeStorage

/// Secure values as the database holds them: AES-256-GCM, bound to their key and group.
@Suite struct SealedValueTests {
  static let appKey = [UInt8](repeating: 7, count: 32)

  static func code(_ body: () throws -> Any) -> ErrorCode? {
    do {
      _ = try body()
      return nil
    } catch let error as BridgeError {
      return error.code
    } catch {
      return .unknownError
    }
  }

  @Test func opensWhatItSealedAndHidesIt() throws {
    let json = #"{"password":"hunter2","emoji":"🔑"}"#
    let sealed = try SealedValue.seal(json, key: "login", group: "", appKey: Self.appKey)
    #expect(!sealed.contains("hunter2"))
    #expect(try SealedValue.open(sealed, key: "login", group: "", appKey: Self.appKey) == json)
    #expect(
      try SealedValue.seal(json, key: "login", group: "", appKey: Self.appKey) != sealed, "a fresh nonce each time")
    #expect(
      try SealedValue.open(
        try SealedValue.seal("", key: "e", group: "g", appKey: Self.appKey), key: "e", group: "g", appKey: Self.appKey)
        == "")
  }

  @Test func doesNotOpenUnderAnotherKeyGroupOrAppKeyOrWhenChanged() throws {
    let sealed = try SealedValue.seal("\"secret\"", key: "a", group: "g", appKey: Self.appKey)
    #expect(Self.code { try SealedValue.open(sealed, key: "b", group: "g", appKey: Self.appKey) } == .unavailable)
    #expect(Self.code { try SealedValue.open(sealed, key: "a", group: "h", appKey: Self.appKey) } == .unavailable)
    // Length-prefixed: moving a byte between group and key changes what is authenticated.
    #expect(Self.code { try SealedValue.open(sealed, key: "ga", group: "", appKey: Self.appKey) } == .unavailable)
    let otherKey = [UInt8](repeating: 8, count: 32)
    #expect(Self.code { try SealedValue.open(sealed, key: "a", group: "g", appKey: otherKey) } == .unavailable)
    var bytes = try #require(Base64.decode(sealed))
    bytes[bytes.count / 2] ^= 1
    #expect(
      Self.code { try SealedValue.open(Base64.encode(bytes), key: "a", group: "g", appKey: Self.appKey) }
        == .unavailable)
    #expect(
      Self.code { try SealedValue.open("not base64!", key: "a", group: "g", appKey: Self.appKey) } == .unavailable)
  }

  @Test func base64MatchesRFC4648() {
    let vectors = [
      "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy",
    ]
    for (plain, encoded) in vectors {
      #expect(Base64.encode(Array(plain.utf8)) == encoded)
      #expect(Base64.decode(encoded) == Array(plain.utf8))
    }
    #expect(Base64.decode("Zm9") == nil)
    #expect(Base64.decode("Z=9v") == nil)
  }
}
