import Foundation
import NBridgePlugin
import Testing

/// `Bytes` made in place: what a plugin wrote is what it holds, the memory is handed to the
/// runtime whole when nothing else shares it, and it behaves as bytes made from an array.
@Suite struct BytesTests {
  private struct Refused: Error {}

  @Test func bytesMadeInPlaceAreHandedOverWithoutACopy() {
    var written: UnsafeMutableRawPointer?
    let bytes = Bytes(unsafeUninitializedCapacity: 16) { buffer, count in
      for i in 0..<10 { buffer[i] = UInt8(i * 3) }
      count = 10
      written = UnsafeMutableRawPointer(buffer.baseAddress)
    }
    #expect(bytes.count == 10)
    #expect(bytes.bytes == (0..<10).map { UInt8($0 * 3) })
    let store = (consume bytes).takeStore()
    #expect(store.base == written, "the runtime gets the memory the bytes were written into")
    #expect(store.count == 10)
  }

  @Test func sharedBytesAreCopiedWhenTakenAndKeepTheirValue() {
    var written: UnsafeMutableRawPointer?
    let original = Bytes(unsafeUninitializedCapacity: 4) { buffer, count in
      buffer.initialize(repeating: 7)
      count = 4
      written = UnsafeMutableRawPointer(buffer.baseAddress)
    }
    let shared = original
    let store = shared.takeStore()
    #expect(store.base != written, "another holder shares it: a copy is handed over")
    store.base.storeBytes(of: 9, as: UInt8.self)  // what a script does to its Uint8Array
    #expect(original.bytes == [7, 7, 7, 7])
    #expect(Bytes([1, 2]).takeStore().count == 2)
  }

  @Test func inPlaceAndArrayBytesAreEqualHashAndEncodeAlike() throws {
    let made = Bytes(unsafeUninitializedCapacity: 8) { buffer, count in
      buffer[0] = 1
      buffer[1] = 2
      buffer[2] = 254
      count = 3
    }
    let array = Bytes([1, 2, 254])
    #expect(made == array)
    #expect(made.hashValue == array.hashValue)
    #expect(made != Bytes([1, 2]))
    #expect(String(decoding: try JSONEncoder().encode(made), as: UTF8.self) == #""AQL+""#)
    #expect(try JSONDecoder().decode(Bytes.self, from: Data(#""AQL+""#.utf8)) == made)
    var changed = made
    changed.bytes = [4]
    #expect(changed.bytes == [4] && made.bytes == [1, 2, 254])
    #expect(Bytes(unsafeUninitializedCapacity: 0) { _, _ in }.bytes.isEmpty)
  }

  @Test func largeBytesReuseTheMemoryFreedLastFirst() {
    // A size no other test uses, so the pool's blocks of it are this test's alone.
    let size = (3 << 20) + 4093
    func address(_ bytes: Bytes) -> UnsafeRawPointer? { bytes.withUnsafeBytes { $0.baseAddress } }
    func made() -> Bytes {
      Bytes(unsafeUninitializedCapacity: size) { buffer, count in
        buffer[0] = 1
        count = size
      }
    }
    var first: Bytes? = made()
    var second: Bytes? = made()
    let (older, newer) = (address(first!), address(second!))
    #expect(older != newer)
    first = nil
    second = nil
    // The memory freed last is the one still in the processor's cache: the next read lands there.
    let next = made()
    #expect(address(next) == newer, "the block given back last is taken first")
    let after = made()
    #expect(address(after) == older)
  }

  @Test func aThrowingInitializerIsRethrown() {
    #expect(throws: Refused.self) {
      _ = try Bytes(unsafeUninitializedCapacity: 8) { (_, _) throws(Refused) in throw Refused() }
    }
  }
}
