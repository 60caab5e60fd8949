import Linux

/// Finds a photo's caption (SPEC §10), from the first source that has text: a sidecar `NAME.txt`
/// next to `NAME.jpg` (UTF-8; the first line is the title, the rest the description), XMP
/// dc:title/dc:description, IPTC Object Name/Caption-Abstract, EXIF ImageDescription; with the
/// date taken (EXIF DateTimeOriginal) in `dateFormat` when `includeDate`.
///
/// Runs on a decode worker, never on the frame loop, with the metadata blocks of the bytes the
/// worker decoded (the photo is not opened again). Every read is bounded: the sidecar to
/// `sidecarLimit` bytes through `RegularFile`; the blocks' own lengths bound what is parsed. A source that is malformed is skipped for the next one and
/// reported in `warning`, one line naming the file.
public struct CaptionReader: Sendable {
    public var includeDate: Bool
    public var dateFormat: String
    public var maxFileMegabytes: Int

    public static let sidecarLimit = 64 * 1024

    public init(includeDate: Bool = false, dateFormat: String = "%e %B %Y",
                maxFileMegabytes: Int = DecodeOptions.defaultMaxFileMegabytes) {
        self.includeDate = includeDate
        self.dateFormat = dateFormat
        self.maxFileMegabytes = maxFileMegabytes
    }

    public struct Reading: Equatable, Sendable {
        public var caption: Caption?
        /// What was wrong with a source that was skipped ("Caption of /p/a.jpg: ...").
        public var warning: String?
    }

    /// The sidecar's path: the photo's name with its extension replaced by ".txt".
    public static func sidecarPath(for photoPath: String) -> String {
        let slash = photoPath.lastIndex(of: "/").map { photoPath.index(after: $0) } ?? photoPath.startIndex
        if let dot = photoPath[slash...].lastIndex(of: "."), dot > slash {
            return photoPath[..<dot] + ".txt"
        }
        return photoPath + ".txt"
    }

    /// The caption of the photo at `photoPath`, its metadata read from the file (opened once):
    /// for a caption read on its own. The decode workers use `read(photoPath:metadata:)` with the
    /// blocks of the bytes they decoded.
    public func read(photoPath: String) -> Reading {
        read(photoPath: photoPath) { problems in
            do {
                return try PhotoDecoder.metadata(path: photoPath, options: DecodeOptions(maxFileMegabytes: maxFileMegabytes))
            } catch let error as PhotoError {
                problems.append("\(error.reason)")
            } catch {
                problems.append("\(error)")
            }
            return .none
        }
    }

    /// The caption of the photo at `photoPath` whose metadata blocks are `metadata`; only the
    /// sidecar is read.
    public func read(photoPath: String, metadata: ImageMetadata) -> Reading {
        read(photoPath: photoPath) { _ in metadata }
    }

    private func read(photoPath: String, metadata readMetadata: (inout [String]) -> ImageMetadata) -> Reading {
        var problems: [String] = []
        var text: (title: String?, description: String?, source: Caption.Source)?

        switch readSidecar(Self.sidecarPath(for: photoPath)) {
        case let .found(title, description) where !Caption(title: title, description: description, source: .sidecar).paragraphs.isEmpty:
            text = (title, description, .sidecar)
        case let .malformed(problem): problems.append(problem)
        case .absent, .found: break  // none, or only white space
        }
        let needsMetadata = text == nil || includeDate
        let metadata = needsMetadata ? readMetadata(&problems) : .none
        if text == nil {
            text = Self.text(in: metadata, problems: &problems)
        }
        var date: String?
        if includeDate, let fields = metadata.exif.lazy.compactMap({ EXIF.dateTimeOriginal(tiff: $0) }).first {
            date = LocalTimeFormat.format(dateFormat, year: fields.year, month: fields.month, day: fields.day,
                                          hour: fields.hour, minute: fields.minute, second: fields.second)
        }
        var caption: Caption?
        if let text {
            caption = Caption(title: text.title, description: text.description, date: date, source: text.source)
        }
        if caption?.paragraphs.isEmpty ?? true, date != nil {
            caption = Caption(date: date, source: .date)
        }
        if caption?.paragraphs.isEmpty == true { caption = nil }
        let warning = problems.isEmpty ? nil : "Caption of \(LogLine.escaped(photoPath)): \(problems.joined(separator: "; "))"
        return Reading(caption: caption, warning: warning)
    }

    func readSidecar(_ path: String) -> CaptionText {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: Self.sidecarLimit)
        } catch {
            if error.errno == .noSuchFileOrDirectory { return .absent }
            return .malformed("sidecar \(error)")
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // a BOM some editors write
        guard let text = String(validating: body, as: UTF8.self) else {
            return .malformed("sidecar \(LogLine.escaped(path)) is not UTF-8")
        }
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n")
        let firstLine = normalised.firstIndex(of: "\n") ?? normalised.endIndex
        let title = String(normalised[..<firstLine])
        let description = firstLine < normalised.endIndex ? String(normalised[normalised.index(after: firstLine)...]) : nil
        return .found(title: title, description: description)
    }

    /// XMP, then IPTC, then EXIF: the first with a title or description.
    static func text(in metadata: ImageMetadata, problems: inout [String]) -> (title: String?, description: String?, source: Caption.Source)? {
        let sources: [(blocks: [ArraySlice<UInt8>], source: Caption.Source, read: (ArraySlice<UInt8>) -> CaptionText)] = [
            (metadata.xmp, .xmp, XMPCaption.read(packet:)),
            (metadata.photoshop, .iptc, IPTCCaption.read(photoshopResources:)),
            (metadata.exif, .exif, EXIF.imageDescription(tiff:)),
        ]
        for (blocks, source, read) in sources {
            for block in blocks {
                switch read(block) {
                case let .found(title, description) where !Caption(title: title, description: description, source: source).paragraphs.isEmpty:
                    return (title, description, source)
                case let .malformed(problem): problems.append(problem)
                case .found, .absent: break
                }
            }
        }
        return nil
    }
}
