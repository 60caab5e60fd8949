import Blitter
import Geometry
import Photos
import Rendering

/// The sample photos decoded once, at the sizes the app would ask for: thumbnails covering a grid
/// cell and screen images fitting the screen (with mip levels). Photo `i` is sample `i % count`.
final class BenchPhotos: PhotoImages {
    let sizes: [Size]
    private let thumbnails: [Bitmap]
    private let screenImages: [MipChain]
    /// Captions by photo index (the caption rows set them).
    var captions: [Int: Caption] = [:]

    init(paths: [String], count: Int, screen: ImageSize, cellSide: Int, decoder: JPEGDecoder) throws {
        var thumbnails: [Bitmap] = [], screenImages: [MipChain] = [], sizes: [Size] = []
        for path in paths {
            let size = try decoder.readHeader(path: path).size
            // As the kiosk's decode queue makes them: decoded, then cropped (a panorama's).
            let kept = size.decodeTarget(.thumbnail(cellSide: cellSide))
            thumbnails.append(try decoder.decode(path: path, to: size.thumbnailDecodeSize(cellSide: cellSide)).bitmap
                .centredCrop(width: kept.width, height: kept.height))
            screenImages.append(MipChain(try decoder.decode(path: path, to: size.decodeTarget(.screen(screen, maxZoom: 4))).bitmap))
            sizes.append(Size(width: Double(size.width), height: Double(size.height)))
        }
        self.sizes = (0..<count).map { sizes[$0 % sizes.count] }
        self.thumbnails = (0..<count).map { thumbnails[$0 % thumbnails.count] }
        self.screenImages = (0..<count).map { screenImages[$0 % screenImages.count] }
    }

    func thumbnail(_ index: Int) -> Bitmap? { thumbnails.indices.contains(index) ? thumbnails[index] : nil }
    func screenImage(_ index: Int) -> MipChain? { screenImages.indices.contains(index) ? screenImages[index] : nil }
    func caption(_ index: Int) -> Caption? { captions[index] }
}
