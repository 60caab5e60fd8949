import Geometry

/// One end of a transition (the grid or the pager). A transition asks it where a photo is on screen
/// and tells it to hide its own copy while the transition carries the photo; the two ends never
/// know about each other (SPEC §1).
public protocol TransitionEnd: AnyObject {
    /// The on-screen frame of photo `index` right now, or nil if this end cannot show it.
    func frame(of index: Int) -> Rect?
    /// Hide photo `index` (nil: hide nothing).
    func setHidden(_ index: Int?)
}
