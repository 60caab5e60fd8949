import Touch

/// What reaches the scene from outside: a touch frame or the Back key (Esc, KEY_BACK), each at its
/// own time on the scene's clock. `run` gets them from evdev, `simulate` from a recording or a script.
public enum SceneInput: Equatable, Sendable {
    case touch(TouchFrame)
    case back(time: Double)

    public var time: Double {
        switch self {
        case .touch(let frame): return frame.time
        case .back(let time): return time
        }
    }
}

/// A source of scripted input (a recording, the demo tour, a benchmark's gestures), asked once per
/// frame for what happens up to the frame's time. It may look at the last frame shown (the tour
/// aims its taps at cells where they are on screen).
public protocol ScriptedInput: AnyObject {
    func events(through time: Double, lastFrame: SceneFrame) -> [SceneInput]
    /// The time of the last event; a simulation runs on until the scene is at rest after it.
    var endTime: Double { get }
}
