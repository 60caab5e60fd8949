import Foundation
import Glibc
import Linux
import Logging
import Photos

/// Watches the photo folder with inotify and calls `changed` once things have settled: a file
/// counts when it is complete (IN_CLOSE_WRITE after a copy, IN_MOVED_TO after a rename into the
/// folder), not when it is created, so a photo still being copied never shows half-drawn.
///
/// A rescan reads the whole folder, so a photo written under its own name (`cp`, `rsync
/// --inplace`, rclone 1.60: open with O_TRUNC, write, close, then set the source's time) while
/// another one completes would be read half-way: the names created or written to and not yet
/// closed are `beingWritten`, which the rescan leaves out. A photo already listed that is written
/// again (a changed photo synced in place) starts a rescan at its first write, so it leaves the
/// library until it is closed; a decode never reads a version the scan did not list
/// (`FileVersion`), which covers the moment before that rescan and writes that began before the
/// watch. A new time or mode alone (rclone setting the source's time after the close, or on a
/// photo whose content is unchanged) is a change too: the listed version is no longer the file.
/// The partial files of copy and sync tools (`PhotoLibrary.isPartialName`: rsync's and
/// Syncthing's dot names, `*.part`, rclone 1.63's `*.partial` …) are ignored altogether; their
/// rename into place is what counts.
final class PhotoFolderWatch {
    private let directory: String
    private let inotify: Inotify
    private let loop: EventLoop
    private let settle: TimerFD
    private let logger: Logger
    private let changed: (_ beingWritten: Set<String>) -> Void
    /// Photo names created or written to and not closed yet.
    private(set) var beingWritten: Set<String> = []

    /// `changed` gets the names still being written, for the rescan to leave out.
    init?(directory: String, loop: EventLoop, logger: Logger, changed: @escaping (_ beingWritten: Set<String>) -> Void) {
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
        self.directory = directory
        self.loop = loop
        self.logger = logger
        self.changed = changed
        do {
            try inotify.watch(directory, mask: Inotify.created | Inotify.modified | Inotify.closedAfterWrite
                              | Inotify.attributes | Inotify.movedTo | Inotify.movedFrom | Inotify.deleted | Inotify.selfDeleted
                              | Inotify.selfMoved)
            try loop.watch(inotify.fileDescriptor) { [unowned self] in
                if self.readEvents() {
                    // A burst (a folder copied in) becomes one rescan 200 ms after its last event.
                    try? self.settle.arm(at: MonotonicClock.now() + 0.2)
                }
            }
            try loop.watch(settle.fileDescriptor) { [unowned self] in
                self.settle.drain()
                // What happened since the last read counts too: a write that began just now.
                _ = self.readEvents()
                self.changed(self.beingWritten)
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

    /// Reads the queued events; true when one of them completed, removed or renamed a photo,
    /// began writing one already there, or changed a complete one's time or mode.
    private func readEvents() -> Bool {
        var completed = false
        for event in inotify.read() {
            if event.has(Inotify.overflow) {
                // Events were lost: what is being written is unknown; the rescan reads it all.
                beingWritten.removeAll()
                completed = true
                continue
            }
            guard !PhotoLibrary.isPartialName(event.name) else { continue }
            if event.has(Inotify.created) {
                if isNewRegularFile(event.name) { beingWritten.insert(event.name) } else { completed = true }
            } else if event.has(Inotify.modified) {
                // Its first write after a close: the version listed is being overwritten.
                if beingWritten.insert(event.name).inserted { completed = true }
            } else if event.has(Inotify.attributes) {
                if !beingWritten.contains(event.name) { completed = true }
            } else {
                beingWritten.remove(event.name)
                completed = true
            }
        }
        return completed
    }

    /// A regular file with one link: just created by open(O_CREAT), and IN_CLOSE_WRITE will follow.
    /// A symlink, a hard link, a FIFO or a folder that appears is complete as it is.
    private func isNewRegularFile(_ name: String) -> Bool {
        var info = stat()
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileName.withPath(path, { lstat($0, &info) }) == 0 else { return false }
        return FileKind(mode: info.st_mode) == .regular && info.st_nlink == 1
    }
}
