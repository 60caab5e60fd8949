import ConfigFile
import Foundation
import Geometry
import Linux
import Scene

/// Writes one JSON object per frame, one per line (SPEC §6): what the screen shows at that time.
/// A file is replaced whole when the trace is closed (Linux's AtomicFile); a FIFO or /dev/stdout is
/// written as the frames come. A trace that cannot be written is an error naming the file.
public final class TraceWriter {
    private let file: AtomicFile
    private var buffer: [UInt8] = []

    public init(path: String) throws {
        file = try Self.reporting { () throws(SystemError) in try AtomicFile(path: path) }
    }

    /// `photos`: how many the library shows now; `screenOn`: false while the opening hours or
    /// blanking have the display off; `caption`: the text shown with the current photo (SPEC §10),
    /// nil when none is; `clip`: the playing current page's clip time and frame (SPEC §12), nil otherwise.
    public func write(_ frame: SceneFrame, photos: Int, screenOn: Bool, caption: String? = nil,
                      clip: (time: Double, frame: Int)? = nil) throws {
        buffer.append(contentsOf: Array(Self.line(for: frame, photos: photos, screenOn: screenOn, caption: caption, clip: clip).utf8))
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count > 1 << 16 { try flush() }
    }

    public func flush() throws {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try Self.reporting { () throws(SystemError) in try file.write(buffer) }
    }

    /// Writes what is buffered and makes the trace the file's contents.
    public func close() throws {
        try flush()
        try Self.reporting { () throws(SystemError) in try file.commit() }
    }

    /// Gives up the trace (an error stopped the run): a file being replaced is left as it was.
    /// Does nothing after `close()`.
    public func discard() {
        file.discard()
    }

    /// "cannot write the trace: write /tmp/t.jsonl: No space left on device (ENOSPC)".
    private static func reporting<T>(_ body: () throws(SystemError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw AppError("cannot write the trace: \(error)")
        }
    }

    /// One trace line. Field order and names follow SPEC §6; extra fields come after them.
    public static func line(for frame: SceneFrame, photos: Int, screenOn: Bool, caption: String? = nil,
                            clip: (time: Double, frame: Int)? = nil) -> String {
        var s = "{\"t\": \(number(frame.time, 4)), \"mode\": \"\(frame.mode.rawValue)\", "
        s += "\"index\": \(frame.currentIndex.map(String.init) ?? "null"), "
        if let r = frame.photoRect {
            s += "\"photo\": {\"x\": \(number(r.x, 2)), \"y\": \(number(r.y, 2)), "
            s += "\"w\": \(number(r.width, 2)), \"h\": \(number(r.height, 2))}, "
        } else {
            s += "\"photo\": null, "
        }
        s += "\"background_alpha\": \(number(frame.backgroundAlpha, 4)), \"scroll\": \(number(frame.gridScroll, 2)), "
        s += "\"hidden\": \(frame.hiddenIndex.map(String.init) ?? "null"), "
        s += "\"photos\": \(photos), \"screen_on\": \(screenOn), "
        s += "\"caption\": \(caption.map(quoted) ?? "null"), "
        s += "\"clip\": \(clip.map { "{\"time\": \(number($0.time, 4)), \"frame\": \($0.frame)}" } ?? "null")"
        if !frame.pages.isEmpty {
            // The photos shown full screen (pager pages, slides) with their alphas: a crossfade's two.
            let pages = frame.pages.map { page in
                let r = page.rect
                return "{\"index\": \(page.index), \"x\": \(number(r.x, 2)), \"y\": \(number(r.y, 2)), "
                    + "\"w\": \(number(r.width, 2)), \"h\": \(number(r.height, 2)), \"alpha\": \(number(page.alpha, 4))}"
            }
            s += ", \"pages\": [" + pages.joined(separator: ", ") + "]"
        }
        return s + "}"
    }

    /// A JSON number with at most `places` decimals, always with a fractional part ("0.0").
    static func number(_ value: Double, _ places: Int) -> String {
        guard value.isFinite else { return "null" }
        var text = String(format: "%.\(places)f", value)
        while text.hasSuffix("0"), !text.hasSuffix(".0") { text.removeLast() }
        if text == "-0.0" { text = "0.0" }
        return text
    }
}
