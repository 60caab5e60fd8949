import Foundation
import Linux
import Logging

/// Watches the photo folder with inotify and calls `changed` once things have settled: a file
/// counts when it is complete (IN_CLOSE_WRITE after a copy, IN_MOVED_TO after a rename into the
/// folder), not when it is created, so a photo still being copied never shows half-drawn.
final class PhotoFolderWatch {
    private let inotify: Inotify
    private let loop: EventLoop
    private let settle: TimerFD
    private let logger: Logger
    private let changed: () -> Void

    init?(directory: String, loop: EventLoop, logger: Logger, changed: @escaping () -> Void) {
        do {
            inotify = try Inotify()
        } catch {
            logger.warning("not watching the photo folder \(directory): \(error)")
            return nil
        }
        do {
            settle = try TimerFD()
        } catch {
            inotify.close()
            logger.warning("not watching the photo folder \(directory): \(error)")
            return nil
        }
        self.loop = loop
        self.logger = logger
        self.changed = changed
        do {
            try inotify.watch(directory, mask: Inotify.closedAfterWrite | Inotify.movedTo | Inotify.movedFrom
                              | Inotify.deleted | Inotify.selfDeleted | Inotify.selfMoved)
            try loop.watch(inotify.fileDescriptor) { [unowned self] in self.readable() }
            try loop.watch(settle.fileDescriptor) { [unowned self] in
                self.settle.drain()
                self.changed()
            }
        } catch {
            logger.warning("not watching the photo folder \(directory): \(error)")
            close()
            return nil
        }
    }

    /// Stops watching and closes the inotify and timer descriptors: the reverse of `init`.
    func close() {
        loop.unwatch(inotify.fileDescriptor)
        loop.unwatch(settle.fileDescriptor)
        inotify.close()
        settle.close()
    }

    private func readable() {
        let events = inotify.read()
        guard !events.isEmpty else { return }
        // A burst (a folder copied in) becomes one rescan 200 ms after its last event.
        try? settle.arm(at: MonotonicClock.now() + 0.2)
    }
}
