import Blitter
import Clips
import Photos
import Text

/// What `scripts/sanitize` runs over every file it is given (the corpus, the repository's samples
/// and test files, odd-sized stills and clips from 1x1 to 33x17), built with AddressSanitizer and
/// run again under Valgrind: every path on which Vitrine hands a buffer to a C library.
/// - the photo path: the header (`PhotoDecoder.info`), then decodes at the photo's own size (capped
///   at 2 MP), at odd sizes around the SIMD blocks and at 1x1, each with the metadata and the
///   conversion to sRGB (libturbojpeg, libspng, libwebp, libheif, lcms2);
/// - the clip path: a clip's frames at its own size (the size the overflow of #36 needed), then at
///   odd sizes, with a rewind before each (libavformat, libavcodec, libswscale);
/// - the caption path: the caption read from the file's metadata (expat, the EXIF and IPTC
///   readers), typeset at odd widths (HarfBuzz, FreeType's glyph bitmaps), and a fixed text with
///   marks, ligatures and right-to-left runs typeset too.
public enum SanitizerSweep {
    /// Target sizes around libswscale's, TurboJPEG's and the blitter's blocks of 4, 8 and 16 pixels;
    /// mostly even heights, the only ones libswscale's SIMD YUV-to-RGB path takes.
    static let oddSizes = [(1, 1), (3, 2), (7, 4), (9, 16), (15, 2), (17, 9), (24, 2), (31, 6), (33, 18), (40, 10)]
    /// Decodes at the own size stop here, so that a 50 MP corpus photo costs what a screen's does.
    static let ownSizeLimit = 2_000_000
    static let captionWidths = [1, 7, 17, 33, 250]
    /// Text the caption path shapes besides each file's own caption: combining marks, a ligature,
    /// Arabic and Hebrew (right to left, joined), CJK and an emoji past the BMP.
    static let fixedText = "Ame\u{301}lie ffi \u{627}\u{644}\u{639}\u{631}\u{628}\u{64A}\u{629} \u{5E2}\u{5D1}\u{5E8}\u{5D9}\u{5EA} 漢字 \u{1F600}"

    public static func run(path: String, typesetter: Typesetter?) -> String {
        var notes: [String] = []
        if isClipName(path) { notes.append(clip(path: path)) }
        notes.append(photo(path: path, typesetter: typesetter))
        return notes.joined(separator: "; ")
    }

    static func isClipName(_ path: String) -> Bool {
        let lower = path.lowercased()
        return ["mp4", "mov", "m4v", "mkv", "webm"].contains { lower.hasSuffix("." + $0) }
    }

    static func clip(path: String) -> String {
        do {
            let reader = try ClipReader(path: path, preferHardware: false)
            let width = reader.info.displayWidth, height = reader.info.displayHeight
            var frames = 0
            if width * height <= ownSizeLimit {
                while frames < 3, try reader.nextFrame(width: width, height: height) != nil { frames += 1 }
            }
            for (w, h) in oddSizes + [(width + 1, height), (width, height + 1)] where w * h <= ownSizeLimit {
                try reader.rewind()
                if try reader.nextFrame(width: w, height: h) != nil { frames += 1 }
            }
            return "clip \(width)x\(height) \(reader.info.codec): \(frames) frames"
        } catch {
            return "clip refused: \(error)"
        }
    }

    static func photo(path: String, typesetter: Typesetter?) -> String {
        let decoder: PhotoDecoder
        do {
            decoder = try PhotoDecoder()
        } catch {
            return "no decoder: \(error)"
        }
        let info: PhotoInfo
        do {
            info = try decoder.info(path: path)
        } catch {
            return "refused: \(error)"
        }
        let size = info.size
        var targets = oddSizes.map { ImageSize(width: $0.0, height: $0.1) }
        targets.insert(size.pixelCount <= ownSizeLimit ? size : size.fitting(in: ImageSize(width: 1600, height: 1200)), at: 0)
        var decoded = 0
        var failure: String?
        var metadata: ImageMetadata?
        for (index, target) in targets.enumerated() {
            do {
                let result = try decoder.decode(path: path, to: target, metadata: index == 0)
                if index == 0 { metadata = result.metadata }
                decoded += 1
            } catch {
                failure = failure ?? "\(error)"
            }
        }
        var captionNote = ""
        if let metadata {
            let reading = CaptionReader().read(photoPath: path, metadata: metadata)
            if let caption = reading.caption {
                typeset(caption.paragraphs, titleParagraphs: caption.titleParagraphs, with: typesetter)
                captionNote = ", caption"
            }
        }
        typeset([fixedText], titleParagraphs: 0, with: typesetter)
        let failed = failure.map { ", failed: \($0)" } ?? ""
        return "\(info.format) \(size): \(decoded)/\(targets.count) decoded\(captionNote)\(failed)"
    }

    static func typeset(_ paragraphs: [String], titleParagraphs: Int, with typesetter: Typesetter?) {
        guard let typesetter else { return }
        for width in captionWidths {
            _ = try? typesetter.typeset(paragraphs, maxWidth: width, maxLines: 3, titleParagraphs: titleParagraphs)
        }
    }
}
