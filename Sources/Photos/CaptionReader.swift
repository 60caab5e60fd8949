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

        public init(caption: Caption?, warning: String?) {
            self.caption = caption
            self.warning = warning
        }
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

    /// The caption of a photo whose sidecar holds `sidecar` (nil: there is none) and whose metadata
    /// blocks are `metadata`, without any file (the fuzz target); `photoPath` names it in the warning.
    public func read(sidecar: [UInt8]?, metadata: ImageMetadata, photoPath: String) -> Reading {
        read(photoPath: photoPath, sidecar: sidecar.map { Self.sidecarText($0[...], path: Self.sidecarPath(for: photoPath)) } ?? .absent) { _ in
            metadata
        }
    }

    private func read(photoPath: String, metadata readMetadata: (inout [String]) -> ImageMetadata) -> Reading {
        read(photoPath: photoPath, sidecar: readSidecar(Self.sidecarPath(for: photoPath)), metadata: readMetadata)
    }

    private func read(photoPath: String, sidecar: CaptionText, metadata readMetadata: (inout [String]) -> ImageMetadata) -> Reading {
        var problems: [String] = []
        var text: (title: String?, description: String?, source: Caption.Source)?

        switch sidecar {
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
        problems += metadata.unread
        if metadata.skippedSegments > 0 {
            problems.append("\(metadata.skippedSegments) metadata segments past the first \(JPEGLayout.maxMetadataSegments) not read")
        }
        var date: String?
        if includeDate, let fields = Self.dateTaken(in: metadata, problems: &problems) {
            date = LocalTimeFormat.formatted(dateFormat, year: fields.year, month: fields.month, day: fields.day,
                                             hour: fields.hour, minute: fields.minute, second: fields.second)
            if date == nil {
                problems.append("the date taken, formatted by captions.date_format, is longer than \(LocalTimeFormat.maximumLength) bytes: not shown")
            }
        }
        var caption: Caption?
        if let text {
            caption = Caption(title: text.title, description: text.description, date: date, source: text.source)
        }
        if caption?.paragraphs.isEmpty ?? true, date != nil {
            caption = Caption(date: date, source: .date)
        }
        if caption?.paragraphs.isEmpty == true { caption = nil }
        let warning = problems.isEmpty ? nil : "Caption of \(LogLine.escaped(photoPath)): \(Self.summary(problems))"
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
        return Self.sidecarText(bytes[...], path: path)
    }

    /// A sidecar's bytes as its title (the first line) and description (the rest).
    static func sidecarText(_ bytes: ArraySlice<UInt8>, path: String) -> CaptionText {
        var body = bytes
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // a BOM some editors write
        guard String(validating: body, as: UTF8.self) != nil else {
            return .malformed("sidecar \(LogLine.escaped(path)) is not UTF-8")
        }
        // Cut at the first line end in the bytes: a line end is never part of a longer character,
        // and searching the String by Character would compare every character of the text.
        let firstLine = body.firstIndex(of: 0x0A) ?? body.endIndex
        var titleBytes = body[..<firstLine]
        if titleBytes.last == 0x0D { titleBytes = titleBytes.dropLast() }  // "\r\n"
        let title = String(decoding: titleBytes, as: UTF8.self)
        let description = firstLine < body.endIndex ? String(decoding: body[(firstLine + 1)...], as: UTF8.self) : nil
        return .found(title: title, description: description)
    }

    /// The first `shownProblems` problems, and how many more (a photo of thousands of broken
    /// blocks is one line of a bounded length).
    static func summary(_ problems: [String]) -> String {
        let shown = problems.prefix(shownProblems).joined(separator: "; ")
        return problems.count > shownProblems ? shown + "; and \(problems.count - shownProblems) more" : shown
    }

    static let shownProblems = 3

    /// The first EXIF DateTimeOriginal that is a date; one that is not (2023:02:30) is a problem
    /// and is not shown, the placeholder of a camera that did not know the date is neither.
    static func dateTaken(in metadata: ImageMetadata, problems: inout [String]) -> DateFields? {
        for tiff in metadata.exif {
            guard let text = EXIF.dateTimeOriginalText(tiff: tiff) else { continue }
            if let fields = DateFields(exif: text) { return fields }
            if !DateFields.isUnknown(exif: text) {
                problems.append("EXIF DateTimeOriginal \"\(LogLine.escaped(String(text.prefix(40))))\" is no date")
            }
        }
        return nil
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
