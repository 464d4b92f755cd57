/// FNV-1a over the UTF-8 of `text`, as fixed-width lowercase hex: short, stable names made from
/// paths (an app id from its entry's folder, a module cache file from its entry).
package func fnv1aHex<Hash: FixedWidthInteger & UnsignedInteger>(_ text: String, offset: Hash, prime: Hash) -> String {
  var hash = offset
  for byte in text.utf8 {
    hash ^= Hash(byte)
    hash = hash &* prime
  }
  let hex = String(hash, radix: 16)
  return String(repeating: "0", count: Hash.bitWidth / 4 - hex.count) + hex
}
