import Blitter
import Linux

/// The run loop's end of remote control: the state the transports share, the eventfd by which they
/// wake the loop, and the transports themselves. Everything here runs on the loop's thread.
public final class RemoteLink {
    public let state: RemoteState
    public let version: String
    private let wake: EventFD
    private var transports: [ControlTransport] = []

    /// `start` starts the transports on the shared state (the HTTP server, MQTT...); nil when none
    /// is configured, and then nothing is opened.
    public init?(version: String, start: (RemoteState) throws -> [ControlTransport]) throws {
        let wake = try EventFD()
        self.wake = wake
        self.version = version
        state = RemoteState(version: version, wake: { wake.signal() })
        do {
            transports = try start(state)
        } catch {
            wake.close()
            throw error
        }
        if transports.isEmpty {
            wake.close()
            return nil
        }
    }

    /// What the loop watches: readable when actions or screenshot requests wait.
    public var fileDescriptor: Int32 { wake.fileDescriptor }

    /// The actions queued since the last call, oldest first (the eventfd reset).
    public func takeActions() -> [RemoteAction] {
        wake.drain()
        return state.takeActions()
    }

    /// Hands a copy of `frame`, the frame on screen (nil: none), to the screenshots waiting, if any.
    /// The copy is made here, on the loop's thread between two frames: never an extra render, and
    /// the next frame drawn into `frame` copies nothing.
    public func answerScreenshots(with frame: Bitmap?) {
        guard state.wantsScreenshot else { return }
        state.answerScreenshots(with: frame.map {
            Bitmap(width: $0.width, height: $0.height, stride: $0.stride, pixels: $0.pixels.withUnsafeBufferPointer { Array($0) })
        })
    }

    public func publish(_ snapshot: RemoteSnapshot) { state.publish(snapshot) }

    /// Stops the transports, then closes the eventfd they signal.
    public func close() {
        for transport in transports { transport.stop() }
        wake.close()
    }
}
