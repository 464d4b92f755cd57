import Synchronization

/// A shape worked out on first read: an action's options shape recorded from its options type
/// (`Shape(decoding:)` runs the type's `init(from:)` and casts each field's type) is only read by
/// `nbridge plugins`, `nbridge types` and the page's catalogue, so a run that never asks does not
/// pay for it at every start.
final class LazyShape: Sendable {
  private let state: Mutex<Shape?>
  private let make: @Sendable () -> Shape
  /// Whether the shape was given, not made.
  let isGiven: Bool

  /// A shape known already.
  init(_ shape: Shape) {
    state = Mutex(shape)
    make = { shape }
    isGiven = true
  }

  /// A shape made by `make` the first time it is read.
  init(making make: @escaping @Sendable () -> Shape) {
    state = Mutex(nil)
    self.make = make
    isGiven = false
  }

  /// The shape when it is known without making it (declared, or read before), else nil.
  var known: Shape? { state.withLock { $0 } }

  /// The shape, made now if it was not yet.
  var value: Shape {
    state.withLock { shape in
      if let shape { return shape }
      let made = make()
      shape = made
      return made
    }
  }
}
