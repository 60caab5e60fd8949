import Blitter
import Config
import Devices
import Linux
import Logging
import Photos
import Remote

/// `run`'s side of the remote server (SPEC §9): the server on its own threads, the eventfd by which
/// it wakes the loop, and the snapshot the loop publishes after each turn. Everything here runs on
/// the loop's thread; the server only sees `RemoteState`.
final class RemoteLink {
    let state: RemoteState
    private let version: String
    private let wake: EventFD
    private let server: RemoteServer
    private let started: Double
    private var touches = 0
    private var fingersDown = false
    private var photosShown = 0
    private var lastShown: Int?

    /// Starts the server on `settings.listen`; nil when that is off.
    init?(settings: Settings.Remote, version: String, logger: Logger, now: Double) throws {
        guard let address = settings.listen else { return nil }
        let wake = try EventFD()
        self.wake = wake
        started = now
        self.version = version
        state = RemoteState(version: version, wake: { wake.signal() })
        if case .off(let why) = AccessToken.load(path: settings.tokenFile) {
            logger.notice("remote: /screenshot and /control are off: \(why)")
        }
        server = RemoteServer(host: address.host, port: address.port, tokenFile: settings.tokenFile, state: state,
                              logger: logger)
    }

    var fileDescriptor: Int32 { wake.fileDescriptor }

    /// Resets the eventfd; the caller then takes the actions and answers screenshots.
    func drain() { wake.drain() }

    /// Stops the server, then closes the eventfd it signals.
    func close() {
        server.stop()
        wake.close()
    }

    /// A touch frame: a first finger down is one touch.
    func touched(contacts: Int) {
        if contacts > 0, !fingersDown { touches += 1 }
        fingersDown = contacts > 0
    }

    /// The run loop's state now, for the server's next answers.
    func publish(status: ServiceStatus, content: KioskContent, display: DisplayConnection, session: KioskSession?,
                 inputs: InputDevices?, now: Double) {
        var snapshot = RemoteSnapshot(version: version)
        switch status.state {
        case .starting: snapshot.state = .starting
        case .waitingForDisplay(let why): (snapshot.state, snapshot.stateDetail) = (.waitingForDisplay, why)
        case .showing: snapshot.state = .showing
        case .displayOff(let why): (snapshot.state, snapshot.stateDetail) = (.displayOff, why)
        case .closed(let until): (snapshot.state, snapshot.stateDetail) = (.closed, until)
        }
        snapshot.photoCount = status.photoCount
        if let output = display.output {
            let kms = output.display
            snapshot.display = .init(connector: kms.connector.name, mode: "\(kms.modeInfo)", connected: display.isConnected)
        }
        snapshot.screenOn = display.output != nil && display.isConnected && session?.isScreenOn == true
        if let session {
            let scene = session.viewer.scene
            snapshot.mode = scene.mode.rawValue
            snapshot.currentIndex = scene.currentIndex
            let photos = session.viewer.store.items
            snapshot.currentFile = scene.currentIndex.flatMap { photos.indices.contains($0) ? photos[$0].name : nil }
            snapshot.decodedBytes = session.viewer.store.decodedBytes
            // A photo opened or paged to counts once, when it becomes the one shown.
            let shown = scene.mode == .pager || scene.mode == .opening ? scene.currentIndex : nil
            if let shown, shown != lastShown { photosShown += 1 }
            lastShown = shown
        }
        snapshot.inputDevices = inputs?.descriptions ?? []
        snapshot.uptime = now - started
        snapshot.framesDrawn = status.framesPresented
        snapshot.framesDropped = status.framesDropped
        snapshot.frameTimeBuckets = status.frameTimes.cumulative
        snapshot.frameTimeSum = status.frameTimes.sum
        snapshot.photosShown = photosShown
        snapshot.photosSkipped = PhotoError.Reason.labels.map { ($0, content.skipped[$0] ?? 0) }
        snapshot.touches = touches
        state.publish(snapshot)
    }

}
