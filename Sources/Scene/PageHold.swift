/// A finger resting on the pager's current page without moving (SPEC §12: touch and hold a Live
/// Photo to play its motion): the page, and when the rest became a hold.
public struct PageHold: Equatable, Sendable {
    public var index: Int
    /// The time the finger had rested for `SceneParameters`' hold duration (0.5 s).
    public var time: Double

    public init(index: Int, time: Double) {
        self.index = index
        self.time = time
    }
}
