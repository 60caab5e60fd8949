import Config
import Logging
import Linux
import Photos

/// The configured photo folder, scanned: the photos in the configured order; every file left out
/// has been logged with its reason by the scan.
enum PhotoFolder {
    /// `excluding`: names being written now (`PhotoFolderWatch.beingWritten`).
    static func scan(_ settings: Settings.Photos, cacheMegabytes: Int? = nil, excluding: Set<String> = [],
                     logger: Logger) throws -> [LibraryItem] {
        try library(settings, cacheMegabytes: cacheMegabytes, excluding: excluding, logger: logger).items
    }

    /// The photos and the files left out (`rejects`), for `/metrics`. `cacheMegabytes`: the cache's
    /// budget, which a photo's decode must fit in (`DecodeOptions.memoryBudget`).
    static func library(_ settings: Settings.Photos, cacheMegabytes: Int? = nil, excluding: Set<String> = [],
                        logger: Logger) throws -> PhotoLibrary {
        do {
            return try PhotoLibrary(scanning: settings.directory, order: settings.sort,
                                    maxMegapixels: settings.maxMegapixels,
                                    maxFileMegabytes: settings.maxFileMegabytes, cacheMegabytes: cacheMegabytes,
                                    excluding: excluding,
                                    logger: logger)
        } catch let error as PhotoError {
            // opendir's own answer: ENOTDIR for a file or a device, EACCES for a folder not readable.
            let why = if case let .unreadable(failure) = error.reason {
                failure.errno == nil ? "\(failure.reason)" : failure.descriptionWithoutPath
            } else { "\(error.reason)" }
            throw AppError("cannot read the photo folder \(LogLine.escaped(settings.directory)) (photos.directory): \(why)")
        }
    }
}
