import Foundation
import Logging

/// The captions the decode workers have read, by photo path: the caption errand (SPEC §10). A
/// worker that decodes a photo's screen image reads its caption from the metadata of the same
/// bytes (the photo is not opened again), once per path; the frame loop looks captions up without
/// waiting (a caption not read yet is simply not drawn yet).
public final class CaptionShelf: @unchecked Sendable {
    public let reader: CaptionReader
    private let logger: Logger
    private let lock = NSLock()
    private var captions: [String: Caption?] = [:]

    public init(reader: CaptionReader, logger: Logger) {
        self.reader = reader
        self.logger = logger
    }

    /// True when the photo's caption was read (whether it has one or not).
    public func knows(_ path: String) -> Bool {
        lock.withLock { captions[path] != nil }
    }

    public func caption(for path: String) -> Caption? {
        lock.withLock { captions[path] ?? nil }
    }

    /// Reads and keeps the caption of the photo at `path`, whose metadata blocks are `metadata`
    /// (on a decode worker); a problem with a source is logged once, here.
    func read(path: String, metadata: ImageMetadata) {
        let reading = reader.read(photoPath: path, metadata: metadata)
        if let warning = reading.warning { logger.warning("\(warning)") }
        store(reading.caption, for: path)
    }

    func store(_ caption: Caption?, for path: String) {
        lock.withLock { captions[path] = .some(caption) }
    }

    public func forget(_ path: String) {
        lock.withLock { captions[path] = nil }
    }
}
