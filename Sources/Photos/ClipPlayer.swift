import Blitter
import Clips
import Foundation
import Logging
import RunLoopRules

/// Plays one clip (SPEC §12): a worker thread of its own reads a `ClipFrameSource` into a small
/// ring of frames at the size the screen shows them, and the frame loop picks the frame due at
/// each sample time (`ClipTimeline`) without ever waiting for it (`simulate` may: `sample(at:wait:)`).
///
/// The ring holds `slots` frames, the one on screen included: one shown, the rest decoded ahead.
/// Four (133 ms of a 30 fps clip) ride out a decoder's slow frames (a key frame, a busy second
/// core) without a late frame; more would only cost memory (a 1080p frame with its levels is
/// 11 MB). The worker blocks while the ring is full; the loop frees a slot each time it moves
/// on. Its bytes are counted against `cache.megabytes` by the owner for as long as the clip plays.
///
/// The clock starts when the first frame is shown (before, the poster shows): a clip whose decoder
/// needs a moment to open starts from its first frame, not late. A source that fails is said once
/// by the owner, and the player reports `failed`; a `stop` lets the worker go after the frame it
/// is decoding, the frame loop never waits for it. `onExit` comes once both happened: the frames are gone.
public final class ClipPlayer: @unchecked Sendable {
    /// Opens the clip at `path` for reading: the source, and the name of its decoder for the log
    /// ("h264_v4l2m2m (hardware)"), nil when there is nothing to say (a test's frames).
    public typealias SourceFactory = @Sendable (_ path: String) throws -> (source: ClipFrameSource, decoder: String?)

    /// One decoded frame.
    public struct Frame: @unchecked Sendable {
        /// The pass through the clip it belongs to (0 the first, each loop one more).
        public let lap: Int
        /// Its number in presentation order within the pass, and its presentation time.
        public let index: Int
        public let time: Double
        /// The picture, with its half-size levels when a transition may shrink it.
        public let image: MipChain

        var stamp: ClipTimeline.Stamp { ClipTimeline.Stamp(lap: lap, time: time) }
    }

    /// What the screen shows of the clip at one sample time.
    public struct Sample {
        /// The frame to show; nil before the first one is decoded (the poster shows).
        public var frame: Frame?
        /// The clip's time at the sample (its position within the pass); nil before it starts.
        public var clipTime: Double?
        /// Another frame is shown from this sample on.
        public var changed = false
        /// The same frame is shown with its half-size levels added (a transition started to
        /// shrink it): the same picture at its size, another one drawn small.
        public var relevelled = false
        /// Frames passed over unseen at this sample.
        public var dropped = 0
        /// A clip that plays once has played past its end.
        public var finished = false
        /// The source failed: nothing more comes (the owner says why, once).
        public var failure: String?
    }

    public let path: String
    public let clip: ClipInfo
    /// The frames' size: the clip at its aspect-fit size on the screen, never larger than the clip.
    public let frameSize: ImageSize
    public let slots: Int
    public let loops: Bool
    /// The decoder's name as the source told it, once known.
    public var decoderName: String? { locked { decoder } }

    private let condition = NSCondition()
    private var ring: [Frame] = []
    /// 1 when `ring[0]` is on screen.
    private var shownCount = 0
    private var timeline: ClipTimeline?
    private let tolerance: Double
    /// The worker read the whole clip (and will not loop): nothing more comes.
    private var ended = false
    /// The end of the last frame's display: a pass's length as the frames measure it.
    private var measuredDuration: Double?
    private var failure: String?
    /// `sample` said the clip played past its end: nothing changes any more.
    private var finishReported = false
    private var stopping = false
    private var levelsWanted: Bool
    /// The frame on screen was last returned with its levels.
    private var shownHasLevels = false
    private var decoder: String?
    private var workerRunning = true
    /// The worker's thread is over, `onExit` included when it was the one to call it.
    private var workerGone = false
    private var released = false
    private let onExit: @Sendable () -> Void

    /// Starts the worker. `withLevels`: frames get their half-size levels (a transition carries
    /// the clip); `onFrame` is called on the worker after each frame and at the end (it should only
    /// wake the loop); `onExit` once the player is stopped and its worker gone (its ring's bytes are free).
    public init(path: String, clip: ClipInfo, frameSize: ImageSize, slots: Int = 4, loops: Bool,
                tolerance: Double = ClipTimeline.exact, withLevels: Bool = false,
                makeSource: @escaping SourceFactory, onFrame: @escaping @Sendable () -> Void,
                onExit: @escaping @Sendable () -> Void = {}) {
        self.path = path
        self.clip = clip
        self.frameSize = ImageSize(width: max(1, frameSize.width), height: max(1, frameSize.height))
        self.slots = max(2, slots)
        self.loops = loops
        self.tolerance = tolerance
        levelsWanted = withLevels
        self.onExit = onExit
        let thread = Thread { [self] in
            work(makeSource: makeSource, onFrame: onFrame)
            // A clip that ended keeps its frame on screen until it is stopped.
            let release = locked {
                workerRunning = false
                condition.broadcast()
                return releaseOnce()
            }
            if release { onExit() }
            locked {
                workerGone = true
                condition.broadcast()
            }
        }
        thread.name = "vitrine-clip"
        thread.start()
    }

    /// The size of the frames' ring, levels included, for one frame of `size`.
    public static func bytesPerFrame(_ size: ImageSize) -> Int {
        var (w, h) = (max(1, size.width), max(1, size.height))
        var total = w * h * MemoryLayout<UInt32>.stride
        while w > 1 || h > 1 {
            (w, h) = (max(1, w / 2), max(1, h / 2))
            total += w * h * MemoryLayout<UInt32>.stride
        }
        return total
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Whether the frames get their half-size levels: while a transition shrinks the clip (it may
    /// by more than 2x); the pager draws a frame at its size, and a level costs more than a frame's
    /// conversion (13 ms for 1080p here). When they become wanted, the worker adds them to the
    /// frames already decoded, the one on screen included (`Sample.relevelled`).
    public func setLevelsWanted(_ wanted: Bool) {
        locked {
            guard levelsWanted != wanted else { return }
            levelsWanted = wanted
            // A worker asleep on a full ring must hear it: its frames now lack their levels.
            condition.broadcast()
        }
    }

    /// Lets the worker go after the frame it is decoding; never waits. The ring is dropped now.
    public func stop() {
        let release = locked {
            stopping = true
            ring.removeAll()
            shownCount = 0
            condition.broadcast()
            return releaseOnce()
        }
        if release { onExit() }
    }

    /// True the one time the frames are gone for good: stopped, and the worker gone. (Lock held.)
    private func releaseOnce() -> Bool {
        guard stopping, !workerRunning, !released else { return false }
        released = true
        ring.removeAll()
        return true
    }

    /// True until the worker has let go of the source and its frames.
    public var isWorkerRunning: Bool { locked { workerRunning } }
    /// The frames in the ring now (the worker sleeps when it holds `slots`).
    public var bufferedFrameCount: Int { locked { ring.count } }

    /// Blocks until the worker has gone and, if it was the last to let go, has called `onExit`
    /// (tests; never the frame loop).
    public func waitForWorker(timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return locked {
            while !workerGone { if !condition.wait(until: deadline) { return false } }
            return true
        }
    }

    // MARK: - The frame loop's side

    /// The frame to show at scene time `t`, and what changed. Never waits unless `wait` (only
    /// `simulate`, to be deterministic): then it returns once the frame due at `t` is known to be
    /// the latest due (the one after it is decoded, or the clip ended or failed).
    public func sample(at t: Double, wait: Bool = false) -> Sample {
        condition.lock()
        defer { condition.unlock() }
        var sample = Sample()
        while wait, !stopping, failure == nil, workerRunning {
            startIfReady(at: t)
            if let timeline {
                // The due frames before the latest due one are passed over at this sample anyway:
                // now, which makes room for the worker to decode the one after.
                if let pick = timeline.pick(ring.map(\.stamp), shownCount: shownCount, at: t), pick.shown > 0 {
                    sample.dropped += pick.dropped
                    ring.removeFirst(pick.shown)
                    shownCount = 0
                    condition.broadcast()
                }
                if ended || ring.contains(where: { !timeline.isDue($0.stamp, at: t) }) { break }
            } else if ended {
                break
            }
            condition.wait()
        }
        startIfReady(at: t)
        sample.failure = failure
        guard let timeline else {
            sample.finished = ended && ring.isEmpty
            return sample
        }
        if let pick = timeline.pick(ring.map(\.stamp), shownCount: shownCount, at: t) {
            sample.dropped += pick.dropped
            ring.removeFirst(pick.shown)
            shownCount = 1
            sample.changed = true
            condition.broadcast()  // room in the ring
        } else if shownCount > 0, !shownHasLevels, ring[0].image.levels.count > 1 {
            sample.relevelled = true
        }
        if shownCount > 0 { shownHasLevels = ring[0].image.levels.count > 1 }
        let position = timeline.position(at: t)
        sample.clipTime = position.time
        sample.frame = shownCount > 0 ? ring.first : nil
        if !loops, ended, let end = measuredDuration, ring.count <= shownCount, position.time >= end - tolerance {
            sample.finished = true
            finishReported = true
        }
        return sample
    }

    /// When the frame shown next is due (scene time): nil while it is not decoded yet (its
    /// arrival wakes the loop), or nothing more comes. A first frame decoded, a failure, or levels
    /// added to the frame on screen are due at once.
    public var nextChange: Double? {
        locked {
            // A failure, or levels for the frame on screen: to be seen at once.
            if failure != nil || (shownCount > 0 && !shownHasLevels && ring[0].image.levels.count > 1) { return -.infinity }
            guard let timeline else { return ring.isEmpty ? nil : -Double.infinity }
            if let change = timeline.nextChange(ring.map(\.stamp), shownCount: shownCount) { return change }
            // A clip that plays once ends when its last frame's time is over.
            if !loops, ended, !finishReported, let end = measuredDuration {
                return timeline.dueTime(of: ClipTimeline.Stamp(lap: 0, time: end)) - tolerance
            }
            return nil
        }
    }

    /// The clock starts with the first frame shown: at `t`, once one is decoded. (Lock held.)
    private func startIfReady(at t: Double) {
        guard timeline == nil, !ring.isEmpty else { return }
        let duration = clip.duration.isFinite && clip.duration > 0 ? clip.duration : measuredDuration ?? .infinity
        timeline = ClipTimeline(start: t, duration: duration, loops: loops, tolerance: tolerance)
    }

    // MARK: - The worker

    private func work(makeSource: SourceFactory, onFrame: @Sendable () -> Void) {
        let source: ClipFrameSource
        do {
            let opened = try makeSource(path)
            source = opened.source
            locked { decoder = opened.decoder }
        } catch {
            locked { failure = "\(error)" }
            onFrame()
            return
        }
        var lap = 0, framesInLap = 0, lastTime = 0.0, interval = clip.frameRate > 0 ? 1 / clip.frameRate : 1.0 / 30
        while true {
            let (withLevels, bare): (Bool?, [Frame]) = locked {
                func lacking() -> [Frame] { levelsWanted ? ring.filter { $0.image.levels.count == 1 } : [] }
                while !stopping, ring.count >= slots, lacking().isEmpty { condition.wait() }
                return (stopping ? nil : levelsWanted, stopping ? [] : lacking())
            }
            guard let withLevels else { return }
            if !bare.isEmpty {
                // Off the lock: the loop goes on showing them meanwhile.
                let levelled = bare.map { Frame(lap: $0.lap, index: $0.index, time: $0.time, image: MipChain($0.image.image)) }
                locked {
                    for frame in levelled {
                        if let i = ring.firstIndex(where: { $0.lap == frame.lap && $0.index == frame.index }) { ring[i] = frame }
                    }
                    condition.broadcast()
                }
                onFrame()
                continue
            }
            let next: ClipFrame?
            do {
                next = try source.nextFrame(width: frameSize.width, height: frameSize.height)
            } catch {
                locked {
                    failure = "\(error)"
                    condition.broadcast()
                }
                onFrame()
                return
            }
            guard let next else {
                // The pass is over: its length is known now (the container's duration may be wrong).
                let measured = max(lastTime + interval, clip.duration.isFinite ? clip.duration : 0)
                // One frame would loop as fast as the source can rewind: it is held instead.
                let again = loops && framesInLap > 1
                locked {
                    if measuredDuration == nil || measured > measuredDuration! { measuredDuration = measured }
                    if let timeline, measured > timeline.duration || !timeline.duration.isFinite {
                        self.timeline?.duration = measured
                    }
                    if !again { ended = true }
                    condition.broadcast()
                }
                guard again else { onFrame(); return }
                do {
                    try source.rewind()
                } catch {
                    locked {
                        failure = "\(error)"
                        condition.broadcast()
                    }
                    onFrame()
                    return
                }
                lap += 1
                framesInLap = 0
                lastTime = 0
                continue
            }
            let time = next.time.isFinite ? max(0, next.time) : lastTime
            if framesInLap > 0, time > lastTime { interval = min(interval, time - lastTime) }
            lastTime = max(lastTime, time)
            framesInLap += 1
            let image = withLevels ? MipChain(next.bitmap) : .single(next.bitmap)
            let frame = Frame(lap: lap, index: next.index, time: time, image: image)
            locked {
                if !stopping { ring.append(frame) }
                condition.broadcast()
            }
            onFrame()
        }
    }
}
