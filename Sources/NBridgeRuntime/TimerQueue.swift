import NBridgePlugin

/// Timers ordered by deadline, then by insertion (a binary heap keyed on both).
struct TimerQueue {
  struct Entry {
    let id: Int
    let deadline: LoopInstant
    let sequence: UInt64
    func precedes(_ other: Entry) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
    }
  }

  private var heap: [Entry] = []
  private var sequence: UInt64 = 0
  /// Live timer ids; a cancelled id stays in the heap until it surfaces.
  private(set) var live: Set<Int> = []

  mutating func insert(id: Int, deadline: LoopInstant) {
    sequence += 1
    live.insert(id)
    heap.append(Entry(id: id, deadline: deadline, sequence: sequence))
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  mutating func cancel(id: Int) { live.remove(id) }

  /// The earliest live deadline.
  mutating func nextDeadline() -> LoopInstant? {
    dropCancelled()
    return heap.first?.deadline
  }

  /// Removes and returns the earliest live timer if it is due at `now`.
  mutating func popDue(now: LoopInstant) -> Int? {
    dropCancelled()
    guard let first = heap.first, first.deadline <= now else { return nil }
    removeFirst()
    live.remove(first.id)
    return first.id
  }

  private mutating func dropCancelled() {
    while let first = heap.first, !live.contains(first.id) { removeFirst() }
  }

  private mutating func removeFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var best = parent
      if left < heap.count, heap[left].precedes(heap[best]) { best = left }
      if right < heap.count, heap[right].precedes(heap[best]) { best = right }
      if best == parent { return }
      heap.swapAt(parent, best)
      parent = best
    }
  }
}
