import NBridgePlugin

/// Timers ordered by deadline, then by insertion (a binary heap keyed on both). A cancelled
/// timer stays in the heap until it surfaces; the owner's `isLive` tells it apart.
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

  mutating func insert(id: Int, deadline: LoopInstant) {
    sequence += 1
    heap.append(Entry(id: id, deadline: deadline, sequence: sequence))
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard heap[child].precedes(heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// The earliest deadline of a live timer.
  mutating func nextDeadline(isLive: (Int) -> Bool) -> LoopInstant? {
    dropCancelled(isLive)
    return heap.first?.deadline
  }

  /// Removes and returns the earliest live timer if it is due at `now`.
  mutating func popDue(now: LoopInstant, isLive: (Int) -> Bool) -> Int? {
    dropCancelled(isLive)
    guard let first = heap.first, first.deadline <= now else { return nil }
    removeFirst()
    return first.id
  }

  private mutating func dropCancelled(_ isLive: (Int) -> Bool) {
    while let first = heap.first, !isLive(first.id) { removeFirst() }
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
