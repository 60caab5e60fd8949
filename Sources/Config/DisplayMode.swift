/// A video mode asked for in `display.mode`: "1920x1080" or "1920x1080@60".
public struct DisplayMode: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Hz; nil: any refresh rate, the connector's preferred one first.
    public var refreshRate: Int?

    public init(width: Int, height: Int, refreshRate: Int? = nil) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }

    /// nil unless `text` is WIDTHxHEIGHT[@HZ] with sizes 1...16384 and a rate 1...1000.
    public init?(_ text: String) {
        let resolutionAndRate = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let size = resolutionAndRate[0].split(separator: "x", maxSplits: 1, omittingEmptySubsequences: false)
        guard size.count == 2,
              let width = Self.number(size[0], in: 1...16384),
              let height = Self.number(size[1], in: 1...16384) else { return nil }
        self.width = width
        self.height = height
        if resolutionAndRate.count == 2 {
            guard let rate = Self.number(resolutionAndRate[1], in: 1...1000) else { return nil }
            refreshRate = rate
        } else {
            refreshRate = nil
        }
    }

    public var description: String {
        "\(width)x\(height)" + (refreshRate.map { "@\($0)" } ?? "")
    }

    /// Plain decimal digits only: Int("+5") would accept a sign.
    private static func number(_ digits: Substring, in range: ClosedRange<Int>) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(digits), range.contains(value) else { return nil }
        return value
    }
}

extension Settings.Display {
    /// `mode` parsed; nil when it is nil ("auto": the connector's preferred mode) or malformed.
    public var requestedMode: DisplayMode? {
        mode.flatMap(DisplayMode.init)
    }
}
