/// Why a colour description could not be used: the photo is then shown unconverted, with one
/// warning (SPEC §11). `call` is the lcms function that failed, or nil when Vitrine's own check
/// refused the description; `message` says what was wrong, with lcms's own words when it had some.
public struct ColourError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String?
    public let message: String

    public init(call: String? = nil, _ message: String) {
        self.call = call
        self.message = message
    }

    public var description: String {
        call.map { "\($0) failed: \(message)" } ?? message
    }
}
