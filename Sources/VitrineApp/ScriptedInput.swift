import Scene
import Touch

/// Input that `simulate` and the headless tour feed to the scene: touch frames and the Back key,
/// each at its own time on the scene's clock.
public enum ScriptedEvent: Equatable, Sendable {
    case touch(TouchFrame)
    case back(time: Double)

    public var time: Double {
        switch self {
        case .touch(let frame): return frame.time
        case .back(let time): return time
        }
    }
}

/// A source of scripted input, asked once per frame for what happens up to the frame's time. It may
/// look at the last frame shown (the tour aims its taps at cells where they are on screen).
public protocol ScriptedInput: AnyObject {
    func events(through time: Double, lastFrame: SceneFrame) -> [ScriptedEvent]
    /// The time of the last event; the simulation runs on until the scene is at rest after it.
    var endTime: Double { get }
}
