import Config
import Foundation
import Linux
import Logging
import SystemPackage

/// The photos of one directory: every *.jpg / *.jpeg (any case, not hidden, not a copy or sync
/// tool's partial file, not in subdirectories) whose headers are sound, in the configured order. Only headers are read; bad files are left out
/// with one warning each and listed in `rejects`.
public struct PhotoLibrary: Sendable {
    public let directory: String
    public let photos: [PhotoInfo]
    /// The files left out, in name order, each with its reason.
    public let rejects: [PhotoError]

    /// Scans `directory` now, reading only each file's headers. Throws only when the directory itself
    /// cannot be listed (a `PhotoError`) or no TurboJPEG decompressor can be made.
    /// `excluding`: names being written now (the folder watch knows them): not complete yet.
    public init(scanning directory: String, order: Settings.Sort = .name, maxMegapixels: Double = 100,
                maxFileMegabytes: Int = JPEGDecoder.defaultMaxFileMegabytes, excluding: Set<String> = [],
                logger: Logger) throws {
        self.directory = directory
        let entries: [(name: String, kind: FileKind?)]
        do {
            entries = try FileName.list(directory)
        } catch {
            throw PhotoError(path: directory, reason: .unreadable(error))
        }
        let decoder = try JPEGDecoder(maxMegapixels: maxMegapixels, maxFileMegabytes: maxFileMegabytes)
        var photos: [PhotoInfo] = []
        var rejects: [PhotoError] = []
        let names = entries.filter { $0.kind != .directory && Self.isPhotoName($0.name) && !excluding.contains($0.name) }
            .map(\.name)
        for name in names.sorted(by: NaturalOrder.areInIncreasingOrder) {
            let path = (directory as NSString).appendingPathComponent(name)
            if entries.contains(where: { $0.name == name && $0.kind == nil }), Self.isDirectory(path) { continue }
            do {
                photos.append(try Self.info(path: path, decoder: decoder))
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
        self.photos = photos
        self.rejects = rejects
    }

    /// A library with known contents (tests, simulations).
    public init(directory: String, photos: [PhotoInfo], rejects: [PhotoError] = []) {
        self.directory = directory
        self.photos = photos
        self.rejects = rejects
    }

    /// The headers of one file (for a file that appeared or changed after the scan).
    public static func info(path: String, decoder: JPEGDecoder) throws -> PhotoInfo {
        let file = try PhotoFile(path: path, maxMegabytes: decoder.maxFileMegabytes)
        defer { file.close() }
        let header = try decoder.readHeader(path: path)
        return PhotoInfo(path: path, fileSize: file.size, modified: file.modified,
                         storedSize: header.storedSize, orientation: header.orientation,
                         coefficientBufferBytes: header.coefficientBufferBytes)
    }

    /// *.jpg or *.jpeg in any case, and not a partial file.
    public static func isPhotoName(_ name: String) -> Bool {
        guard !isPartialName(name) else { return false }
        let lower = name.lowercased()
        return lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
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
        var info = stat()
        return FileName.withPath(path) { stat($0, &info) } == 0 && FileKind(mode: info.st_mode) == .directory
    }
}
