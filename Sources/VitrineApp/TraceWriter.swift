import Foundation
import Geometry
import Scene

/// Writes one JSON object per frame, one per line (SPEC §6): what the screen shows at that time.
public final class TraceWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw AppError("cannot create trace file \(path): \(String(cString: strerror(errno)))")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw AppError("cannot open trace file \(path) for writing")
        }
        self.handle = handle
    }

    public func write(_ frame: SceneFrame) {
        buffer.append(contentsOf: Array(Self.line(for: frame).utf8))
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count > 1 << 16 { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    public func close() {
        flush()
        try? handle.close()
    }

    /// One trace line. Field order and names follow SPEC §6; extra fields come after them.
    public static func line(for frame: SceneFrame) -> String {
        var s = "{\"t\": \(number(frame.time, 4)), \"mode\": \"\(frame.mode.rawValue)\", "
        s += "\"index\": \(frame.currentIndex.map(String.init) ?? "null"), "
        if let r = frame.photoRect {
            s += "\"photo\": {\"x\": \(number(r.x, 2)), \"y\": \(number(r.y, 2)), "
            s += "\"w\": \(number(r.width, 2)), \"h\": \(number(r.height, 2))}, "
        } else {
            s += "\"photo\": null, "
        }
        s += "\"background_alpha\": \(number(frame.backgroundAlpha, 4)), \"scroll\": \(number(frame.gridScroll, 2)), "
        s += "\"hidden\": \(frame.hiddenIndex.map(String.init) ?? "null")}"
        return s
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
