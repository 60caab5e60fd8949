import Foundation

/// What a transport (`POST /control`, MQTT's command topic) asks the kiosk to do (SPEC §9, §14).
/// The run loop carries it out on its own thread; a transport only submits it to `RemoteState`.
public enum RemoteAction: Equatable, Sendable, CustomStringConvertible {
    case next
    case previous
    /// Open (or page to) the photo at this index.
    case open(Int)
    case close
    case screenOff
    case screenOn
    /// What SIGHUP does: the config and the photos read again.
    case reload

    public static let names = ["next", "previous", "open", "close", "screen_off", "screen_on", "reload"]

    public var name: String {
        switch self {
        case .next: "next"
        case .previous: "previous"
        case .open: "open"
        case .close: "close"
        case .screenOff: "screen_off"
        case .screenOn: "screen_on"
        case .reload: "reload"
        }
    }

    /// Every action but "reload" acts on what the screen shows: while the kiosk waits for a display
    /// there is nothing for it to act on.
    public var needsScreen: Bool { self != .reload }

    /// Why the kiosk that `snapshot` describes cannot take this action now; nil when it can.
    public func refusal(in snapshot: RemoteSnapshot) -> RemoteRequestError? {
        guard needsScreen, snapshot.state == .waitingForDisplay else { return nil }
        return .unavailable("not taken: \(self) has nothing to act on while the kiosk waits for a display")
    }

    private static func wrongType(_ context: DecodingError.Context) -> RemoteRequestError {
        let key = context.codingPath[context.codingPath.count - 1].stringValue
        return .badRequest("\"\(key)\" has the wrong type: \(key == "index" ? "an integer" : "a string") expected")
    }

    /// "next", "open 3".
    public var description: String {
        if case .open(let index) = self { return "open \(index)" }
        return name
    }

    private struct Body: Decodable {
        var action: String
        /// A number, so that 1.5 is answered as such (JSONDecoder calls it invalid JSON for an Int).
        var index: Double?
    }

    /// The action of a JSON body `{"action": "open", "index": 3}`, or why it is not one (a message
    /// for a 400 answer). `photoCount` bounds "open"'s index.
    public static func parse(json: [UInt8], photoCount: Int) -> Result<RemoteAction, RemoteRequestError> {
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(json))
        } catch DecodingError.keyNotFound(let key, _) {
            return .failure(.badRequest("the body has no \"\(key.stringValue)\""))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            return .failure(wrongType(context))
        } catch {
            return .failure(.badRequest("the body is not a JSON object {\"action\": ..., \"index\": N}"))
        }
        let expected = "one of " + names.joined(separator: ", ")
        switch body.action {
        case "next": return .success(.next)
        case "previous": return .success(.previous)
        case "close": return .success(.close)
        case "screen_off": return .success(.screenOff)
        case "screen_on": return .success(.screenOn)
        case "reload": return .success(.reload)
        case "open":
            guard let number = body.index else { return .failure(.badRequest("\"open\" needs an \"index\"")) }
            guard number.rounded() == number else {
                return .failure(.badRequest("\"index\" has the wrong type: an integer expected"))
            }
            // An integer however large (9223372036854775807 arrives as 9.2e18): out of range, not
            // of the wrong type.
            guard number >= 0, number < Double(photoCount), let index = Int(exactly: number) else {
                let shown = abs(number) < 1e15 ? "\(Int(number))" : "\(number)"
                let range = photoCount > 0 ? ", 0...\(photoCount - 1)" : ""
                return .failure(.badRequest("\"index\" \(shown) is out of range: \(photoCount) photos\(range)"))
            }
            return .success(.open(index))
        default:
            let shown = body.action.count > 40 ? String(body.action.prefix(40)) + "…" : body.action
            return .failure(.badRequest("unknown action \"\(shown)\": \(expected)"))
        }
    }
}

/// An action refused, with why. `status` is the kind of refusal as an HTTP status (400: not an action,
/// 503: not now), which other transports map to their own.
public struct RemoteRequestError: Error, Equatable, Sendable {
    public var status: Int
    public var message: String

    public init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    static func badRequest(_ message: String) -> RemoteRequestError { RemoteRequestError(status: 400, message: message) }
    static func unavailable(_ message: String) -> RemoteRequestError { RemoteRequestError(status: 503, message: message) }
}
