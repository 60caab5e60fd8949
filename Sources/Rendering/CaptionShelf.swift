import Foundation
import Photos

/// The captions the decode workers have read, by photo path: written on a worker, read by the
/// frame loop without waiting (a caption not read yet is simply not drawn yet).
final class CaptionShelf: @unchecked Sendable {
    private let lock = NSLock()
    private var captions: [String: Caption?] = [:]

    /// True when the photo's caption was read (whether it has one or not).
    func knows(_ path: String) -> Bool {
        lock.withLock { captions[path] != nil }
    }

    func caption(for path: String) -> Caption? {
        lock.withLock { captions[path] ?? nil }
    }

    func store(_ caption: Caption?, for path: String) {
        lock.withLock { captions[path] = .some(caption) }
    }

    func forget(_ path: String) {
        lock.withLock { captions[path] = nil }
    }
}
