import Config
import Logging
import Photos

/// The configured photo folder, scanned: the photos in the configured order; every file left out
/// has been logged with its reason by the scan.
enum PhotoFolder {
    static func scan(_ settings: Settings.Photos, logger: Logger) throws -> [PhotoInfo] {
        do {
            let order: PhotoLibrary.Order = settings.sort == .modified ? .modified : .name
            return try PhotoLibrary(scanning: settings.directory, order: order,
                                    maxMegapixels: settings.maxMegapixels, logger: logger).photos
        } catch let error as PhotoError {
            throw AppError("cannot read the photo folder \(settings.directory) (photos.directory): \(error.reason)")
        }
    }
}
