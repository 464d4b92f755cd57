import CGio

/// SHA digests for `crypto.subtle.digest`, through GLib's GChecksum (already linked).
enum Digest {
  /// The algorithms by the index the prelude passes: SHA-1, SHA-256, SHA-384, SHA-512.
  static let kinds: [GChecksumType] = [G_CHECKSUM_SHA1, G_CHECKSUM_SHA256, G_CHECKSUM_SHA384, G_CHECKSUM_SHA512]

  /// Writes the digest of `input` into `output` (which holds the algorithm's length); false if not.
  static func compute(kind: Int, input: UnsafeRawBufferPointer, output: UnsafeMutableRawBufferPointer) -> Bool {
    guard kinds.indices.contains(kind) else { return false }
    let type = kinds[kind]
    guard output.count == Int(g_checksum_type_get_length(type)), let checksum = g_checksum_new(type) else {
      return false
    }
    defer { g_checksum_free(checksum) }
    if let base = input.baseAddress, input.count > 0 {
      g_checksum_update(checksum, base.assumingMemoryBound(to: guchar.self), gssize(input.count))
    }
    var length = gsize(output.count)
    g_checksum_get_digest(checksum, output.baseAddress!.assumingMemoryBound(to: guint8.self), &length)
    return Int(length) == output.count
  }
}
