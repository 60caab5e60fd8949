import Config
import Foundation
import Linux
import Logging

/// The items of one directory: every file with a name a decoder lists (`PhotoDecoder.isCandidateName`:
/// *.jpg, *.heic, *.mov …, any case; not hidden, not a copy or sync tool's partial file, not in
/// subdirectories) whose content a decoder claims and whose headers are sound, in the configured
/// order; a clip is a clip item, and a Live Photo's still and motion one item (`LivePhotoPairing`).
/// Only headers are read, each file opened once; bad files are left out with one warning each and
/// listed in `rejects`.
public struct PhotoLibrary: Sendable {
    public let directory: String
    public let items: [LibraryItem]
    /// The files left out, in name order, each with its reason.
    public let rejects: [PhotoError]

    /// Scans `directory` now, reading only each file's headers. `cacheMegabytes`: a photo whose
    /// decode would hold more than cache.megabytes besides its output is left out (nil: no bound). Throws only when the directory itself
    /// cannot be listed (a `PhotoError`) or a decoder cannot be made (no TurboJPEG decompressor).
    /// `excluding`: names being written now (the folder watch knows them): not complete yet.
    public init(scanning directory: String, order: Settings.Sort = .name, maxMegapixels: Double = 100,
                maxFileMegabytes: Int = DecodeOptions.defaultMaxFileMegabytes, cacheMegabytes: Int? = nil,
                excluding: Set<String> = [], files: PhotoFileOpener = .linux, logger: Logger) throws {
        self.directory = directory
        let entries: [(name: String, kind: FileKind?)]
        do {
            entries = try FileName.list(directory)
        } catch {
            throw PhotoError(path: directory, reason: .unreadable(error))
        }
        let decoder = try PhotoDecoder(options: DecodeOptions(maxMegapixels: maxMegapixels, maxFileMegabytes: maxFileMegabytes,
                                                              files: files, cacheMegabytes: cacheMegabytes))
        var photos: [PhotoInfo] = []
        var rejects: [PhotoError] = []
        // Each entry keeps the kind readdir told (nil: ask stat); every step is linear or a sort on
        // keys made once, so 100,000 photos scan as fast per photo as 100 (issue #22).
        let candidates = entries.filter { $0.kind != .directory && Self.isPhotoName($0.name) && !excluding.contains($0.name) }
        for entry in NaturalOrder.sorted(candidates, by: \.name) {
            let path = (directory as NSString).appendingPathComponent(entry.name)
            if entry.kind == nil, Self.isDirectory(path) { continue }
            do {
                photos.append(try decoder.info(path: path))
            } catch let error as PhotoError {
                logger.warning("Skipping photo \(LogLine.escaped(error.path)): \(error.reason)")
                rejects.append(error)
            }
        }
        if order == .modified {
            // Stable sort: equal times keep name order.
            photos = photos.enumerated().sorted { a, b in
                a.element.modified != b.element.modified ? a.element.modified < b.element.modified : a.offset < b.offset
            }.map(\.element)
        }
        // After the sort: a Live Photo takes its still's place.
        items = LivePhotoPairing.items(from: photos)
        self.rejects = rejects
    }

    /// A library with known contents (tests, simulations).
    public init(directory: String, items: [LibraryItem], rejects: [PhotoError] = []) {
        self.directory = directory
        self.items = items
        self.rejects = rejects
    }

    /// A name of a photo format (`PhotoDecoder.isCandidateName`) in any case, and not a partial file.
    public static func isPhotoName(_ name: String) -> Bool {
        !isPartialName(name) && PhotoDecoder.isCandidateName(name)
    }

    /// Names copy and sync tools write a file under until it is complete, then rename (SPEC §4):
    /// dotfiles (rsync's `.NAME.XXXXXX`, Syncthing's `.syncthing.NAME.tmp`, an editor's swap file),
    /// `*.part` (Firefox, KIO), `*.partial` (rclone's --partial-suffix), `*.crdownload`
    /// (Chromium), `*.tmp` (many), `*~` (backups).
    /// Never shown as photos, and their writes never trigger a rescan.
    public static func isPartialName(_ name: String) -> Bool {
        if name.hasPrefix(".") || name.hasSuffix("~") { return true }
        let lower = name.lowercased()
        return partialSuffixes.contains { lower.hasSuffix($0) }
    }

    private static let partialSuffixes = [".part", ".partial", ".crdownload", ".tmp"]

    private static func isDirectory(_ path: String) -> Bool {
        (try? FileStatus(path: path))?.kind == .directory
    }
}
