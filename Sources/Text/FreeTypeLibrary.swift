import CFreeType

/// What a text library call said when it failed: the call's name and its error code.
public struct TextError: Error, CustomStringConvertible, Equatable {
    public let call: String
    public let message: String

    public init(_ call: String, _ message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call) failed: \(message)" }
}

/// One FreeType library instance. FreeType objects are not thread-safe: a library and its faces
/// belong to one thread (the frame loop's renderer, or one benchmark).
final class FreeTypeLibrary {
    let handle: FT_Library

    init() throws {
        var library: FT_Library?
        let error = FT_Init_FreeType(&library)
        guard error == 0, let library else { throw TextError("FT_Init_FreeType", "error \(error)") }
        handle = library
    }

    deinit {
        FT_Done_FreeType(handle)
    }
}
