import Photos
import RemoteControl

extension RemoteSnapshot {
    /// What the transports report, from the two owners of those facts: the service (state,
    /// library, frames, devices) and the session when there is one (what the screen shows).
    init(version: String, status: ServiceStatus, session: KioskSession?, now: Double) {
        self.init(version: version)
        switch status.state {
        case .starting: state = .starting
        case .waitingForDisplay(let why): (state, stateDetail) = (.waitingForDisplay, why)
        case .showing: state = .showing
        case .displayOff(let why): (state, stateDetail) = (.displayOff, why)
        case .closed(let until): (state, stateDetail) = (.closed, until)
        }
        photoCount = status.photoCount
        photosSkipped = PhotoError.Reason.labels.map { ($0, status.photosSkipped[$0] ?? 0) }
        display = status.display
        inputDevices = status.inputDevices
        uptime = now - status.started
        framesDrawn = status.framesPresented
        framesDropped = status.framesDropped
        frameTimeBuckets = status.frameTimes.cumulative
        frameTimeSum = status.frameTimes.sum
        touchLatencyBuckets = status.touchLatencies.cumulative
        touchLatencySum = status.touchLatencies.sum
        screenOn = status.display?.connected == true && session?.isScreenOn == true
        guard let session else { return }
        let scene = session.viewer.scene
        mode = scene.mode.rawValue
        currentIndex = scene.currentIndex
        let photos = session.viewer.store.items
        currentFile = scene.currentIndex.flatMap { photos.indices.contains($0) ? photos[$0].name : nil }
        decodedBytes = session.viewer.store.decodedBytes
        photosShown = session.photosShown
        touches = session.touches
        clipFramesShown = session.clipFramesShown
        clipFramesDropped = session.clipFramesDropped
        if let index = scene.currentIndex, photos.indices.contains(index) {
            let playing = scene.mode != .grid && session.viewer.clips.playingIndex == index
            switch photos[index].kind {
            case .still: break
            case .clip: currentClip = Clip(kind: "clip", playing: playing)
            case .livePhoto: currentClip = Clip(kind: "live_photo", playing: playing)
            }
        }
    }
}

extension RemoteLink {
    /// After each turn of the loop: what the transports answer from until the next.
    func publish(status: ServiceStatus, session: KioskSession?, now: Double) {
        publish(RemoteSnapshot(version: version, status: status, session: session, now: now))
    }
}
