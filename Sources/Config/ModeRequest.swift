/// A video mode asked for in `display.mode` (SPEC §5): "1920x1080" or "1920x1080@60". It is parsed
/// once, when the config is read, so a malformed mode is a config error with its line; DRM's mode
/// selection then picks the connector's mode that matches it.
public struct ModeRequest: Equatable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    /// Whole hertz; nil: any refresh rate. A connector's mode matches within half a hertz, so 60
    /// takes a 59.94 Hz mode too.
    public var refreshRate: Int?

    public init(width: Int, height: Int, refreshRate: Int? = nil) {
        self.width = width
        self.height = height
        self.refreshRate = refreshRate
    }

    /// nil unless `text` is WIDTHxHEIGHT[@HZ] in plain decimal digits, with sizes 1...16384 and a
    /// rate of 1...1000 whole hertz.
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

    /// As it is written in the config.
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
