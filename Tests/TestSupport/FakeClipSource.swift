import Blitter
import Clips
import Foundation
import Photos

/// Frames as plain values: `count` frames at `fps`, each filled with a colour that names it, an
/// error at `failAt`, and a gate that holds `nextFrame` until the test opens it.
public final class FakeClipSource: ClipFrameSource, @unchecked Sendable {
    public let info: ClipInfo
    public let count: Int
    public let failAt: Int?
    private let lock = NSCondition()
    private var next = 0
    private var _requests: [ImageSize] = []
    private var _rewinds = 0
    private var gateOpen: Bool
    public struct Broken: Error, CustomStringConvertible { public init() {}; public var description: String { "corrupt packet" } }

    public init(count: Int, fps: Double, width: Int = 320, height: Int = 180, failAt: Int? = nil, gated: Bool = false) {
        info = ClipInfo(container: "fake", codec: "fake", storedWidth: width, storedHeight: height, rotation: 0,
                        duration: Double(count) / fps, frameRate: fps)
        self.count = count
        self.failAt = failAt
        gateOpen = !gated
    }

    /// The colour of frame `index`.
    public static func colour(_ index: Int) -> UInt32 { UInt32(0x10_0000 + index) }

    public var requests: [ImageSize] { lock.withLock { _requests } }
    public var rewinds: Int { lock.withLock { _rewinds } }
    public var framesRead: Int { lock.withLock { _requests.count } }

    public func open() {
        lock.withLock { gateOpen = true; lock.broadcast() }
    }

    public func nextFrame(width: Int, height: Int) throws -> ClipFrame? {
        lock.lock()
        defer { lock.unlock() }
        while !gateOpen { lock.wait() }
        if next == failAt { throw Broken() }
        guard next < count else { return nil }
        _requests.append(ImageSize(width: width, height: height))
        defer { next += 1 }
        return ClipFrame(index: next, time: Double(next) / info.frameRate,
                         bitmap: Bitmap(width: width, height: height, color: Self.colour(next)))
    }

    public func rewind() throws {
        lock.withLock { next = 0; _rewinds += 1 }
    }
}


extension FakeClipSource {
    /// A library item for a clip of `count` frames at `fps` and `width` x `height` (its poster's
    /// size), at a path that does not exist (its poster never decodes).
    public static func item(_ name: String, count: Int, fps: Double, width: Int = 320, height: Int = 180,
                            live: Bool = false) -> LibraryItem {
        let clip = ClipInfo(container: "fake", codec: "fake", storedWidth: width, storedHeight: height, rotation: 0,
                            duration: Double(count) / fps, frameRate: fps)
        let path = "/nonexistent/\(name)"
        if live {
            let still = PhotoInfo(path: path + ".jpg", fileSize: 1, modified: Date(timeIntervalSince1970: 0), format: "JPEG",
                                  storedSize: ImageSize(width: width, height: height), orientation: .normal)
            let motion = PhotoInfo(path: path + ".mov", fileSize: 1, modified: Date(timeIntervalSince1970: 0), format: "clip",
                                   storedSize: ImageSize(width: width, height: height), orientation: .normal, clip: clip)
            return LibraryItem(kind: .livePhoto(motion: motion), picture: still)
        }
        let poster = PhotoInfo(path: path + ".mp4", fileSize: 1, modified: Date(timeIntervalSince1970: 0), format: "clip",
                               storedSize: ImageSize(width: width, height: height), orientation: .normal, clip: clip)
        return LibraryItem(kind: .clip(clip), picture: poster)
    }

    /// A still photo that never decodes.
    public static func still(_ name: String) -> LibraryItem {
        .still(PhotoInfo(path: "/nonexistent/\(name).jpg", fileSize: 1, modified: Date(timeIntervalSince1970: 0), format: "JPEG",
                         storedSize: ImageSize(width: 400, height: 300), orientation: .normal))
    }
}
