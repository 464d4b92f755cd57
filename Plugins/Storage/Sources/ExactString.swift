import Glibc

/// A string compared by its UTF-8 bytes, as SQLite compares keys.
///
/// Swift's `String` equality is Unicode canonical equivalence ("é" precomposed equals
/// "e" + combining accent), but JavaScript and SQLite treat those as two different
/// keys; pending writes are matched with this type so they agree with the file.
struct ExactString: Hashable, Sendable {
  /// The string.
  let string: String

  init(_ string: String) { self.string = string }

  static func == (lhs: ExactString, rhs: ExactString) -> Bool {
    // Native strings keep contiguous UTF-8: compare the bytes at once.
    let compared: Bool?? = lhs.string.utf8.withContiguousStorageIfAvailable { left in
      rhs.string.utf8.withContiguousStorageIfAvailable { right in
        left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
      }
    }
    if case .some(.some(let equal)) = compared { return equal }
    return lhs.string.utf8.elementsEqual(rhs.string.utf8)
  }

  func hash(into hasher: inout Hasher) {
    let hashed: Void? = string.utf8.withContiguousStorageIfAvailable {
      hasher.combine(bytes: UnsafeRawBufferPointer($0))
    }
    if hashed == nil {
      for byte in string.utf8 { hasher.combine(byte) }
    }
  }

  /// Whether `lhs` sorts before `rhs` byte by byte (SQLite's `BINARY` collation).
  static func precedes(_ lhs: String, _ rhs: String) -> Bool { lhs.utf8.lexicographicallyPrecedes(rhs.utf8) }
}
