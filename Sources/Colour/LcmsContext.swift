import CLcms2

/// One Little CMS context, owned: everything lcms does for a converter runs in it. Its log handler
/// keeps lcms's last error message (for the `ColourError` of the call that failed) instead of
/// letting lcms report it anywhere; the global context's handler is silenced too. Not thread-safe,
/// like the converter that owns it.
final class LcmsContext {
    let handle: cmsContext
    private let messages: Messages

    /// What the log handler writes to, through the context's user data.
    private final class Messages {
        var last: String?
    }

    /// lcms's global context (used by calls given no context) reports nowhere; once per process.
    private static let silenceGlobalContext: Void = {
        cmsSetLogErrorHandler { _, _, _ in }
    }()

    init() throws {
        _ = Self.silenceGlobalContext
        let messages = Messages()
        guard let handle = cmsCreateContext(nil, Unmanaged.passUnretained(messages).toOpaque()) else {
            throw ColourError(call: "cmsCreateContext", "out of memory")
        }
        self.handle = handle
        self.messages = messages  // outlives the context: released after cmsDeleteContext
        cmsSetLogErrorHandlerTHR(handle) { context, _, text in
            guard let context, let user = cmsGetContextUserData(context) else { return }
            Unmanaged<Messages>.fromOpaque(user).takeUnretainedValue().last = text.map { String(cString: $0) }
        }
    }

    deinit {
        cmsDeleteContext(handle)
    }

    /// The result of the lcms call `name` made by `body`; nil from it is an error carrying the
    /// call's name and lcms's message for it.
    func call<Value>(_ name: String, _ body: (cmsContext) -> Value?) throws -> Value {
        messages.last = nil
        guard let result = body(handle) else {
            throw ColourError(call: name, messages.last ?? "no reason given")
        }
        return result
    }
}
