import Linux

/// Finds a photo's caption (SPEC §10), from the first source that has text: a sidecar `NAME.txt`
/// next to `NAME.jpg` (UTF-8; the first line is the title, the rest the description), XMP
/// dc:title/dc:description, IPTC Object Name/Caption-Abstract, EXIF ImageDescription; with the
/// date taken (EXIF DateTimeOriginal) in `dateFormat` when `includeDate`.
///
/// Runs on a decode worker, never on the frame loop. Every read is bounded: the sidecar to
/// `sidecarLimit` bytes through `RegularFile`, the photo to its headers (the metadata segments'
/// own lengths bound what is parsed). A source that is malformed is skipped for the next one and
/// reported in `warning`, one line naming the file.
public struct CaptionReader: Sendable {
    public var includeDate: Bool
    public var dateFormat: String
    public var maxFileMegabytes: Int

    public static let sidecarLimit = 64 * 1024
    /// How much of the photo's start is read for its metadata at most: headers run to a few
    /// hundred kilobytes (an embedded preview, ICC profiles); 64 APP segments of 64 KB fit.
    public static let headerLimit = 4 << 20

    public init(includeDate: Bool = false, dateFormat: String = "%e %B %Y",
                maxFileMegabytes: Int = JPEGDecoder.defaultMaxFileMegabytes) {
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

    public func read(photoPath: String) -> Reading {
        var problems: [String] = []
        var text: (title: String?, description: String?, source: Caption.Source)?

        switch readSidecar(Self.sidecarPath(for: photoPath)) {
        case let .found(title, description) where !Caption(title: title, description: description, source: .sidecar).paragraphs.isEmpty:
            text = (title, description, .sidecar)
        case let .malformed(problem): problems.append(problem)
        case .absent, .found: break  // none, or only white space
        }
        let needsMetadata = text == nil || includeDate
        let segments = needsMetadata ? readMetadata(photoPath, problems: &problems) : []
        if text == nil {
            text = Self.text(in: segments, problems: &problems)
        }
        var date: String?
        if includeDate, let fields = segments.lazy.filter({ $0.marker == 0xE1 }).compactMap({ EXIF.dateTimeOriginal(app1Payload: $0.payload) }).first {
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

    struct Segment {
        var marker: UInt8
        var payload: ArraySlice<UInt8>
    }

    /// The APP1 and APP13 segments of the photo's headers.
    func readMetadata(_ path: String, problems: inout [String]) -> [Segment] {
        do {
            let file = try PhotoFile(path: path, maxMegabytes: maxFileMegabytes)
            defer { file.close() }
            var bytes = try file.readPrefix(64 * 1024)
            while true {
                let layout = JPEGLayout(parsing: bytes[...])
                if case let .endOfData(needed) = layout.stop, bytes.count < file.size, bytes.count < Self.headerLimit {
                    let more = try file.readPrefix(min(Self.headerLimit, max(needed, bytes.count * 2)))
                    if more.count > bytes.count {
                        bytes = more
                        continue
                    }
                }
                return layout.metadata.map { Segment(marker: $0.marker, payload: bytes[$0.payload]) }
            }
        } catch let error as PhotoError {
            problems.append("\(error.reason)")
        } catch {
            problems.append("\(error)")
        }
        return []
    }

    /// XMP, then IPTC, then EXIF: the first with a title or description.
    static func text(in segments: [Segment], problems: inout [String]) -> (title: String?, description: String?, source: Caption.Source)? {
        let sources: [(marker: UInt8, source: Caption.Source, read: (ArraySlice<UInt8>) -> CaptionText)] = [
            (0xE1, .xmp, XMPCaption.read(app1Payload:)),
            (0xED, .iptc, IPTCCaption.read(app13Payload:)),
            (0xE1, .exif, EXIF.imageDescription(app1Payload:)),
        ]
        for (marker, source, read) in sources {
            for segment in segments where segment.marker == marker {
                switch read(segment.payload) {
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
